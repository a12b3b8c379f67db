// Extended attributes for Swift (see xattrs.h).
#include "xattrs.h"

#include <sys/xattr.h>

ssize_t anim_listxattr(const char *path, char *names, size_t size) { return listxattr(path, names, size); }

ssize_t anim_getxattr(const char *path, const char *name, void *value, size_t size) {
    return getxattr(path, name, value, size);
}

int anim_fsetxattr(int fd, const char *name, const void *value, size_t size) {
    return fsetxattr(fd, name, value, size, 0);
}
