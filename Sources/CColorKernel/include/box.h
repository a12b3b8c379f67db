#ifndef ANIM_BOX_H
#define ANIM_BOX_H
#include <stddef.h>
#include <stdint.h>

/// One source row of a box filter (Downsampler.swift): for each output
/// column x, the `count[x]` RGBA8 pixels from `start[x]` are added to
/// sums[4x...4x+3] as (Σα·r, Σα·g, Σα·b, Σα). Every count[x] is at most
/// ANIM_BOX_MAX_RUN, so that a column's sum over the row fits 32 bits.
void anim_box_add_row(const uint8_t *row, const int32_t *start, const int32_t *count, int32_t columns, int64_t *sums);

/// One output row of a box filter from its sums (`columns` pixels): colour
/// Σα·c / Σα rounded, alpha Σα · column_weight[x] · row_weight + 0.5
/// truncated (at most 255); a mean alpha below half a level gives
/// transparent black. Float arithmetic in the order Downsampler.swift
/// documents, so that the result is the same bit for bit on every path.
void anim_box_write_row(const int64_t *sums, const float *column_weight, float row_weight, int32_t columns,
                        uint8_t *out);

/// The longest run `anim_box_add_row` takes: 66051 × 255 × 255 < 2^32.
#define ANIM_BOX_MAX_RUN 66051

/// Rows first (Downsampler.swift): adds one source row's `width` RGBA8
/// pixels to `acc`, per source pixel (Σα·r, Σα·g, Σα·b, Σα) in 32 bits.
void anim_box_accumulate_row(const uint8_t *row, int32_t width, uint32_t *acc);

/// One output row from `acc` (the source rows of its box, summed by
/// `anim_box_accumulate_row`): each output column's `count[x]` source
/// pixels from `start[x]` added and written as `anim_box_write_row` does,
/// the same pixels bit for bit. A box of at most ANIM_BOX_MAX_AREA32
/// pixels keeps every sum below 2^31.
void anim_box_collapse_row(const uint32_t *acc, const int32_t *start, const int32_t *count, const float *column_weight,
                           float row_weight, int32_t columns, uint8_t *out);

/// The largest box (columns × rows) the 32-bit sums take: 33025 × 255 × 255 < 2^31.
#define ANIM_BOX_MAX_AREA32 33025

#endif
