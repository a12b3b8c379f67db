#ifndef ANIM_MAPPEDFILE_H
#define ANIM_MAPPEDFILE_H

#include <stddef.h>

/// Guards a read-only mapping of a file: when the file is truncated while
/// it is mapped, touching a page past its new end raises SIGBUS; inside a
/// guarded mapping the handler maps a page of zeros there instead (the read
/// goes on, over zeros) and sets `*changed` to 1, so the reader can say
/// "the file changed while it was read" instead of dying. A SIGBUS anywhere
/// else goes to the handler that was there before (or kills, as it would
/// have). Returns 0, or -1 when every slot is taken (the mapping is then
/// unguarded: the caller should read the file instead).
int anim_guard_mapping(const void *base, size_t length, volatile int *changed);

/// Stops guarding the mapping at `base` (before it is unmapped).
void anim_unguard_mapping(const void *base);

/// Whether the guard found the file changed (`*changed`, read once).
int anim_mapping_changed(const volatile int *changed);

#endif
