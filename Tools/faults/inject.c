// A fault injector for anim's writing commands, loaded with LD_PRELOAD
// (Tools/faults/sweep.py builds and drives it). ANIM_FAULT=CALL:N:ERRNO makes
// the Nth call of CALL on a regular file fail with ERRNO, and every later one
// too (a full disk stays full): CALL is write, fsync, rename or read;
// ERRNO is ENOSPC, EIO or EDQUOT. ANIM_FAULT=truncate:N truncates the file
// being read to half its size at the Nth read of a regular file instead.
// Calls on pipes, terminals and standard streams are never failed, so that
// anim's messages get out. When the fault fired, "anim-fault: fired" is
// written to the file named by ANIM_FAULT_REPORT, if set.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char call[16];
static long nth = -1;
static int error_number = EIO;
static atomic_long count;
static atomic_int fired;

__attribute__((constructor)) static void setup(void) {
    const char *spec = getenv("ANIM_FAULT");
    if (!spec) return;
    char name[16] = {0}, err[16] = {0};
    long n = 0;
    if (sscanf(spec, "%15[a-z]:%ld:%15s", name, &n, err) < 2) return;
    strcpy(call, name);
    nth = n;
    if (strcmp(err, "ENOSPC") == 0) error_number = ENOSPC;
    if (strcmp(err, "EDQUOT") == 0) error_number = EDQUOT;
}

static int regular(int fd) {
    struct stat st;
    return fd > 2 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

static void report(void) {
    if (atomic_exchange(&fired, 1)) return;
    const char *path = getenv("ANIM_FAULT_REPORT");
    if (!path) return;
    int (*real_open)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
    int fd = real_open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    ssize_t (*real_write)(int, const void *, size_t) = dlsym(RTLD_NEXT, "write");
    if (fd >= 0) {
        real_write(fd, "anim-fault: fired\n", 18);
        close(fd);
    }
}

// Whether this call of `name` fails: from the Nth on.
static int fails(const char *name) {
    if (nth < 0 || strcmp(call, name) != 0) return 0;
    if (atomic_fetch_add(&count, 1) + 1 < nth) return 0;
    report();
    return 1;
}

ssize_t write(int fd, const void *buffer, size_t size) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "write");
    if (regular(fd) && fails("write")) {
        errno = error_number;
        return -1;
    }
    return real(fd, buffer, size);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = dlsym(RTLD_NEXT, "fsync");
    if (regular(fd) && fails("fsync")) {
        errno = error_number;
        return -1;
    }
    return real(fd);
}

int rename(const char *from, const char *to) {
    static int (*real)(const char *, const char *);
    if (!real) real = dlsym(RTLD_NEXT, "rename");
    if (fails("rename")) {
        errno = error_number;
        return -1;
    }
    return real(from, to);
}

ssize_t read(int fd, void *buffer, size_t size) {
    static ssize_t (*real)(int, void *, size_t);
    if (!real) real = dlsym(RTLD_NEXT, "read");
    if (regular(fd)) {
        if (strcmp(call, "truncate") == 0) {
            if (nth >= 0 && atomic_fetch_add(&count, 1) + 1 == nth) {
                struct stat st;
                char link[64], path[4096];
                snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
                ssize_t n = readlink(link, path, sizeof path - 1);
                if (n > 0 && fstat(fd, &st) == 0) {
                    path[n] = 0;
                    report();
                    truncate(path, st.st_size / 2);
                }
            }
        } else if (fails("read")) {
            errno = error_number;
            return -1;
        }
    }
    return real(fd, buffer, size);
}
