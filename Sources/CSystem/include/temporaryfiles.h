#ifndef ANIM_TEMPORARYFILES_H
#define ANIM_TEMPORARYFILES_H

/// The temporary files being written now, so that a signal handler can
/// remove them all (`anim_temporary_unlink_all` is async-signal-safe).
/// `add` copies `path` and returns its slot, or -1 when all are taken.
int anim_temporary_add(const char *path);
void anim_temporary_remove(int slot);
void anim_temporary_unlink_all(void);

#endif
