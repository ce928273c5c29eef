/* fuzz_record.c — libFuzzer target: game records (rp_record_read), every game. A refused
 * record says why; an accepted one has replayed to a state that keeps every promise of a
 * state, and writes out (rp_record_write) as a record that reads back to the same match and
 * writes out again the same, byte for byte. */
#include "fuzz.h"
#include "ramparts/engine.h"

/* The record of m as text (the caller frees it). */
static char *record_text(const rp_match *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    FUZZ_CHECK(out != NULL, "out of memory");
    FUZZ_CHECK(rp_record_write(m, out) == RP_OK, "%s: an accepted record does not write out",
               rp_match_game(m)->id);
    fclose(out);
    return text;
}

/* A record read from text: the match, or NULL with err filled. */
static rp_match *read_record(const char *text, size_t len, rp_error *err)
{
    FILE *in = fmemopen((void *)text, len, "r");
    FUZZ_CHECK(in != NULL, "fmemopen failed");
    rp_match *m = rp_record_read(in, "fuzz.rec", err);
    fclose(in);
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    rp_error err = {{0}};
    rp_match *m = read_record((const char *)data, size, &err);
    if (!m) {
        FUZZ_CHECK(err.msg[0] != '\0', "a record refused without a reason");
        return 0;
    }
    const rp_game *game = rp_match_game(m);
    rp_rng rng;
    fuzz_rng(&rng, data, size);
    rp_state state, back_state; /* a test reads the referee's state: rp_match_referee */
    rp_match_referee(m, rp_match_length(m), &state, NULL);
    fuzz_check_state(game, &state, &rng);

    char *written = record_text(m);
    rp_match *back = read_record(written, strlen(written), &err);
    FUZZ_CHECK(back != NULL, "%s: a written record does not read back: %s\n%s", game->id, err.msg,
               written);
    rp_match_referee(back, rp_match_length(back), &back_state, NULL);
    rp_match_referee(m, rp_match_length(m), &state, NULL);
    FUZZ_CHECK(rp_match_game(back) == game && rp_match_moves(back) == rp_match_moves(m) &&
                   memcmp(&back_state, &state, game->state_size) == 0,
               "%s: a written record reads back as another match\n%s", game->id, written);
    char *again = record_text(back);
    FUZZ_CHECK(strcmp(again, written) == 0,
               "%s: a record writes out differently once read\n%s"
               "\n----\n%s",
               game->id, written, again);
    free(again);
    free(written);
    rp_match_free(back);
    rp_match_free(m);
    return 0;
}
