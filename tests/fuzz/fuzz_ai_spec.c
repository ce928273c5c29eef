/* fuzz_ai_spec.c — libFuzzer target: AI specs (rp_ai_create) and lists of them
 * (rp_ai_split_specs). The first input byte picks the game; the rest is the spec. A refused
 * spec says why and makes no AI; an accepted one makes an AI named by the spec. A list splits
 * into pieces that join back, with ',', into the list. (Choosing moves is not fuzzed: a valid
 * spec may ask for an hour of thinking.) */
#include "fuzz.h"
#include "ramparts/ai.h"

static void check_split(const char *text)
{
    char *list = strdup(text);
    FUZZ_CHECK(list != NULL, "out of memory");
    char *specs[8];
    const int n = rp_ai_split_specs(list, specs, 8);
    FUZZ_CHECK(n >= -1 && n <= 8, "rp_ai_split_specs returned %d", n);
    if (n > 0) {
        char joined[FUZZ_MAX_INPUT + 16] = "";
        size_t len = 0;
        for (int i = 0; i < n; i++)
            len +=
                (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? "," : "", specs[i]);
        FUZZ_CHECK(strcmp(joined, text) == 0, "the list '%s' splits into pieces that join as '%s'",
                   text, joined);
    }
    free(list);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 1024)
        return 0;
    const rp_game *game = rp_games[data[0] % rp_num_games];
    char *spec = fuzz_text(data + 1, size - 1);
    rp_ai *ai = NULL;
    rp_error err = {{0}};
    if (rp_ai_create(game, spec, 7, &ai, &err) < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "the spec '%s' was refused without a reason", spec);
        FUZZ_CHECK(ai == NULL, "a refused spec made an AI");
    } else {
        FUZZ_CHECK(ai != NULL && strncmp(rp_ai_name(ai), spec, strlen(rp_ai_name(ai))) == 0,
                   "the AI made from '%s' is named '%s'", spec, ai ? rp_ai_name(ai) : "");
        rp_ai_free(ai);
    }
    check_split(spec);
    free(spec);
    return 0;
}
