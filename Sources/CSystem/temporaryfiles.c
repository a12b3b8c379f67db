// The registry of temporary files (see temporaryfiles.h). A slot's string is
// published with an atomic store after it is made, and taken back with an
// atomic exchange before it is freed, so the handler never reads a freed one.
#include "temporaryfiles.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 256

static _Atomic(char *) paths[SLOTS];

int anim_temporary_add(const char *path) {
    char *copy = strdup(path);
    if (!copy) return -1;
    for (int i = 0; i < SLOTS; i++) {
        char *expected = NULL;
        if (atomic_compare_exchange_strong(&paths[i], &expected, copy)) return i;
    }
    free(copy);
    return -1;
}

void anim_temporary_remove(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    free(atomic_exchange(&paths[slot], NULL));
}

void anim_temporary_unlink_all(void) {
    for (int i = 0; i < SLOTS; i++) {
        char *path = atomic_load(&paths[i]);
        if (path) unlink(path);
    }
}
