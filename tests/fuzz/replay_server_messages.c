/* replay_server_messages.c — runs fuzz_server_messages.c's LLVMFuzzerTestOneInput over files
 * and folders of inputs without libFuzzer, so `make test` (gcc, ASan+UBSan) replays the
 * committed corpus tests/fuzz/corpus/server-messages: every input that ever broke the server
 * stays fixed. Usage: replay_server_messages PATH... (exit 1 when a path cannot be read). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    uint8_t *data = NULL;
    size_t size = 0, cap = 0, got = 1;
    while (got > 0) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown)
                break;
            data = grown;
        }
        got = fread(data + size, 1, cap - size, in);
        size += got;
    }
    fclose(in);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 1;
}

/* Every regular file of a folder (in readdir order: each input runs on its own). */
static int run_folder(const char *dir_path)
{
    DIR *dir = opendir(dir_path);
    if (!dir)
        return -1;
    int count = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && run_file(path) > 0)
            count++;
    }
    closedir(dir);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: %s FILE-OR-FOLDER...\n", argv[0]);
        return argc < 2 ? 2 : 0;
    }
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        const int n = stat(argv[i], &st) != 0 ? -1
                      : S_ISDIR(st.st_mode)   ? run_folder(argv[i])
                                              : run_file(argv[i]);
        if (n < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        total += n;
    }
    fprintf(stderr, "replay: %d inputs ran cleanly\n", total);
    return 0;
}
