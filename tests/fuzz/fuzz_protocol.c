/* fuzz_protocol.c — libFuzzer target: lines of the text protocol (`ramparts engine`,
 * docs/protocol.md), fed one by one to a protocol session (src/cli/cmd_engine.c). The contract:
 * every command line gets exactly one answer, "=..." or "?..." ended by one empty line, with the
 * line's id echoed; blank and comment lines get none; a refused command ("?") says why and
 * changes nothing the session holds (match, history, options, clocks: compared byte for byte).
 * genmove (an AI search: seconds, not microseconds, per line) and loadrecord (opens a path; the
 * record target fuzzes what it reads) are left out. */
#include <ctype.h>

#include "cli/cli.h"
#include "fuzz.h"

#define FUZZ_MAX_LINES 48

/* The command word of a protocol line (after an optional numeric id), into word. */
static void command_word(const char *line, char *word, size_t size)
{
    while (*line == ' ' || *line == '\t')
        line++;
    while (isdigit((unsigned char)*line))
        line++;
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = 0;
    while (line[n] && line[n] != ' ' && line[n] != '\t' && n < size - 1)
        n++;
    memcpy(word, line, n);
    word[n] = '\0';
}

/* Whether the engine answers the line at all: GTP skips blank lines and comments (after
 * dropping control characters, as the engine does). */
static bool gets_an_answer(const char *line)
{
    for (const char *p = line; *p; p++) {
        const unsigned char c = (unsigned char)*p;
        if (c == ' ' || c == '\t' || c < 32 || c == 127)
            continue;
        return c != '#';
    }
    return false;
}

/* One answer: '=' or '?', then text with no empty line inside, ended by "\n\n". */
static void check_answer(const char *answer, size_t len, const char *line)
{
    FUZZ_CHECK(len >= 3 && (answer[0] == '=' || answer[0] == '?'),
               "the line '%.200s' got no answer or a malformed one", line);
    const char *empty = strstr(answer, "\n\n");
    FUZZ_CHECK(empty == answer + len - 2, "the answer to '%.200s' is not one block: %.300s", line,
               answer);
    if (answer[0] == '?') {
        size_t i = 1;
        while (isdigit((unsigned char)answer[i]))
            i++;
        FUZZ_CHECK(answer[i] == ' ' && answer[i + 1] != '\n',
                   "'%.200s' was refused without a reason", line);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    char *text = fuzz_text(data, size);
    char *answers = NULL;
    size_t answers_len = 0;
    FILE *out = open_memstream(&answers, &answers_len);
    FUZZ_CHECK(out != NULL, "out of memory for the answers");
    rp_engine_session *session = rp_engine_open(out);
    FUZZ_CHECK(session != NULL, "out of memory for the session");
    size_t snapshot_size = 1 << 16;
    char *before = malloc(snapshot_size), *after = malloc(snapshot_size);
    FUZZ_CHECK(before && after, "out of memory for the snapshots");

    int lines = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && lines < FUZZ_MAX_LINES;
         line = strtok_r(NULL, "\n", &save), lines++) {
        char word[32];
        command_word(line, word, sizeof word);
        if (strcmp(word, "genmove") == 0 || strcmp(word, "loadrecord") == 0)
            continue;
        char copy[8192];
        snprintf(copy, sizeof copy, "%s", line);
        const size_t need = rp_engine_snapshot(session, before, snapshot_size);
        if (need > snapshot_size) {
            snapshot_size = need * 2;
            free(before);
            free(after);
            before = malloc(snapshot_size);
            after = malloc(snapshot_size);
            FUZZ_CHECK(before && after, "out of memory for the snapshots");
            rp_engine_snapshot(session, before, snapshot_size);
        }
        const size_t start = answers_len;
        const bool go_on = rp_engine_line(session, copy);
        /* the stream's buffer stays NULL until something is written */
        const char *answer = answers ? answers + start : "";
        const size_t len = answers_len - start;
        if (!gets_an_answer(line)) {
            FUZZ_CHECK(len == 0, "the blank or comment line '%.200s' was answered", line);
        } else {
            check_answer(answer, len, line);
            if (answer[0] == '?') {
                const size_t now = rp_engine_snapshot(session, after, snapshot_size);
                FUZZ_CHECK(now == need && memcmp(before, after, need) == 0,
                           "the refused command '%.200s' changed the session", line);
            }
        }
        if (!go_on) {
            rp_engine_close(session);
            session = rp_engine_open(out);
            FUZZ_CHECK(session != NULL, "out of memory for the session");
        }
    }
    rp_engine_close(session);
    fclose(out);
    free(answers);
    free(before);
    free(after);
    free(text);
    return 0;
}
