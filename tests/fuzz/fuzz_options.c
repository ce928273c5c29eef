/* fuzz_options.c — libFuzzer target: key=value options (rp_config_set) for every game. The
 * first input byte picks the game; the rest is options separated by spaces or new lines. A
 * refused option says why and leaves the options as they were; accepted ones write out
 * (rp_config_to_text) as options that read back to the same text; a game set up from them
 * either starts soundly (its state keeps every promise and plays on) or is refused with a
 * reason. */
#include "fuzz.h"

/* Apply every option of `text` (spaces and new lines separate them) to cfg; with `strict`
 * every one must be accepted. */
static void set_options(const rp_game *game, rp_config *cfg, char *text, bool strict)
{
    for (char *save = NULL, *tok = strtok_r(text, " \n", &save); tok;
         tok = strtok_r(NULL, " \n", &save)) {
        rp_config before;
        memcpy(&before, cfg, sizeof before); /* every byte, padding too */
        rp_error err = {{0}};
        if (rp_config_set(game, cfg, tok, &err) == RP_OK)
            continue;
        FUZZ_CHECK(!strict, "%s: the written option '%s' does not read back: %s", game->id, tok,
                   err.msg);
        FUZZ_CHECK(err.msg[0] != '\0', "%s: option '%s' refused without a reason", game->id, tok);
        /* a refusal leaves every byte as it was, padding included */
        /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
        FUZZ_CHECK(memcmp(&before, cfg, sizeof before) == 0,
                   "%s: the refused option '%s' changed the options", game->id, tok);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    const rp_game *game = rp_games[data[0] % rp_num_games];
    char *text = fuzz_text(data + 1, size - 1);
    rp_config cfg;
    rp_config_default(game, &cfg);
    set_options(game, &cfg, text, false);
    free(text);

    char written[4096], again[4096];
    FUZZ_CHECK(rp_config_to_text(game, &cfg, written, sizeof written) > 0,
               "%s: the options do not write out", game->id);
    rp_config back;
    rp_config_default(game, &back);
    char copy[sizeof written];
    memcpy(copy, written, sizeof copy);
    set_options(game, &back, copy, true);
    FUZZ_CHECK(rp_config_to_text(game, &back, again, sizeof again) > 0 &&
                   strcmp(written, again) == 0,
               "%s: options '%s' read back as '%s'", game->id, written, again);

    rp_state st;
    rp_error err = {{0}};
    if (game->init(&st, &cfg, &err) < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "%s: '%s' refused without a reason", game->id, written);
        return 0;
    }
    FUZZ_CHECK(game->num_players(&st) == cfg.players, "%s: '%s' seats %d players", game->id,
               written, game->num_players(&st));
    rp_rng rng;
    fuzz_rng(&rng, data, size);
    fuzz_play(game, &st, 5, &rng);
    return 0;
}
