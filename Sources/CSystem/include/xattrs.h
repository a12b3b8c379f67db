#ifndef ANIM_XATTRS_H
#define ANIM_XATTRS_H

#include <sys/types.h>

/// <sys/xattr.h>, which Swift's Glibc module leaves out: the names of the
/// extended attributes of `path` (NUL-separated), one's value, and setting
/// one on an open file. Each returns what the system call returns.
ssize_t anim_listxattr(const char *path, char *names, size_t size);
ssize_t anim_getxattr(const char *path, const char *name, void *value, size_t size);
int anim_fsetxattr(int fd, const char *name, const void *value, size_t size);

#endif
