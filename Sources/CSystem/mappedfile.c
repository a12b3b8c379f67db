// The SIGBUS guard of mapped files (see mappedfile.h). The handler reads the
// slots without a lock: a slot's length and flag are stored before its base,
// and its base is cleared first when it is released, with sequentially
// consistent atomics.
#define _GNU_SOURCE
#include "mappedfile.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#define SLOTS 128

struct slot {
    _Atomic(uintptr_t) base;
    _Atomic(size_t) length;
    _Atomic(uintptr_t) changed;
};

static struct slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous;
static int installed;
static uintptr_t page_size;

static void on_sigbus(int sig, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int i = 0; i < SLOTS; i++) {
        uintptr_t base = atomic_load(&slots[i].base);
        if (base == 0 || address < base || address - base >= atomic_load(&slots[i].length)) continue;
        void *page = (void *)(address & ~(page_size - 1));
        if (mmap(page, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED) {
            volatile int *changed = (volatile int *)atomic_load(&slots[i].changed);
            if (changed) *changed = 1;
            return;  // the read is retried, over zeros
        }
        break;
    }
    // Not a guarded mapping: what was there before.
    if (previous.sa_flags & SA_SIGINFO) {
        previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    } else {
        // The default action: returning retries the access, which now kills.
        signal(sig, SIG_DFL);
    }
}

int anim_guard_mapping(const void *base, size_t length, volatile int *changed) {
    pthread_mutex_lock(&lock);
    if (!installed) {
        page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
        struct sigaction action = {0};
        action.sa_sigaction = on_sigbus;
        action.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        installed = sigaction(SIGBUS, &action, &previous) == 0;
    }
    int result = -1;
    for (int i = 0; installed && i < SLOTS; i++) {
        if (atomic_load(&slots[i].base) != 0) continue;
        atomic_store(&slots[i].length, length);
        atomic_store(&slots[i].changed, (uintptr_t)changed);
        atomic_store(&slots[i].base, (uintptr_t)base);
        result = 0;
        break;
    }
    pthread_mutex_unlock(&lock);
    return result;
}

void anim_unguard_mapping(const void *base) {
    pthread_mutex_lock(&lock);
    for (int i = 0; i < SLOTS; i++) {
        if (atomic_load(&slots[i].base) != (uintptr_t)base) continue;
        atomic_store(&slots[i].base, 0);
        atomic_store(&slots[i].changed, 0);
        break;
    }
    pthread_mutex_unlock(&lock);
}

int anim_mapping_changed(const volatile int *changed) { return *changed != 0; }
