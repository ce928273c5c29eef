/* replay.c — runs a fuzz target's LLVMFuzzerTestOneInput over files and directories of inputs
 * without libFuzzer, so `make test` (gcc, ASan+UBSan) replays the committed corpora: every
 * input that ever broke a contract stays fixed. */
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
    if (!in) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(in);
                return -1;
            }
            data = grown;
        }
        const size_t got = fread(data + size, 1, cap - size, in);
        size += got;
        if (got == 0)
            break;
    }
    fclose(in);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of a directory, in name order. Returns how many ran, or -1. */
static int run_directory(const char *dir_path)
{
    DIR *dir = opendir(dir_path);
    if (!dir)
        return -1;
    char **names = NULL;
    size_t count = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        char **grown = realloc(names, (count + 1) * sizeof *names);
        if (!grown)
            break;
        names = grown;
        names[count] = strdup(e->d_name);
        if (names[count])
            count++;
    }
    closedir(dir);
    if (count > 1) /* names is NULL when the directory holds no file */
        qsort(names, count, sizeof *names, compare_names);
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir_path, names[i]);
        struct stat info;
        if (stat(path, &info) == 0 && S_ISREG(info.st_mode) && run_file(path) == 0)
            ran++;
        free(names[i]);
    }
    free(names);
    return ran;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
        return 2;
    }
    int total = 0;
    for (int i = 1; i < argc; i++) {
        struct stat info;
        if (stat(argv[i], &info) != 0) {
            fprintf(stderr, "replay: no such file or directory: %s\n", argv[i]);
            return 1;
        }
        const int ran = S_ISDIR(info.st_mode) ? run_directory(argv[i]) : run_file(argv[i]) + 1;
        if (ran < 0)
            return 1;
        total += ran;
    }
    printf("replayed %d inputs\n", total);
    return total > 0 ? 0 : 1;
}
