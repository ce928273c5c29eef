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
               m->game->id);
    fclose(out);
    return text;
}

/* Read a record from text into m; RP_OK or < 0 with err filled. */
static int read_record(rp_match *m, const char *text, size_t len, rp_error *err)
{
    FILE *in = fmemopen((void *)text, len, "r");
    FUZZ_CHECK(in != NULL, "fmemopen failed");
    const int rc = rp_record_read(m, in, "fuzz.rec", err);
    fclose(in);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    rp_match m;
    rp_error err = {{0}};
    if (read_record(&m, (const char *)data, size, &err) < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "a record refused without a reason");
        return 0;
    }
    const rp_game *game = m.game;
    rp_rng rng;
    fuzz_rng(&rng, data, size);
    fuzz_check_state(game, &m.state, &rng);

    char *written = record_text(&m);
    rp_match back;
    FUZZ_CHECK(read_record(&back, written, strlen(written), &err) == RP_OK,
               "%s: a written record does not read back: %s\n%s", game->id, err.msg, written);
    FUZZ_CHECK(back.game == game && back.num_moves == m.num_moves &&
                   memcmp(&back.state, &m.state, game->state_size) == 0,
               "%s: a written record reads back as another match\n%s", game->id, written);
    char *again = record_text(&back);
    FUZZ_CHECK(strcmp(again, written) == 0,
               "%s: a record writes out differently once read\n%s"
               "\n----\n%s",
               game->id, written, again);
    free(again);
    free(written);
    rp_match_free(&back);
    rp_match_free(&m);
    return 0;
}
