/* fuzz_state.c — libFuzzer target: a game's full-state notation (state_from_text), built once
 * per game. The contract of game.h: a refused text says why and leaves the state untouched; an
 * accepted one is canonical (it is exactly what state_to_text writes back), passes state_ok,
 * keeps every promise of a state (fuzz_check_state) and plays on soundly. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    const rp_game *game = fuzz_game();
    char *text = fuzz_text(data, size);
    rp_state st, before;
    memset(&st, 0x5A, sizeof st);
    memcpy(&before, &st, sizeof st);
    rp_error err = {{0}};
    if (game->state_from_text(&st, text, &err) < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "%s: a text refused without a reason", game->id);
        /* the contract is byte for byte: padding included (both copies made with memcpy) */
        /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
        FUZZ_CHECK(memcmp(&st, &before, sizeof st) == 0,
                   "%s: a refused text changed the state (%s)", game->id, err.msg);
        free(text);
        return 0;
    }
    char again[RP_STATE_TEXT];
    FUZZ_CHECK(game->state_to_text(&st, again, sizeof again) > 0 && strcmp(again, text) == 0,
               "%s: accepted the non-canonical text\n%s\nwhich writes back as\n%s", game->id, text,
               again);
    rp_rng rng;
    fuzz_rng(&rng, data, size);
    fuzz_check_state(game, &st, &rng);
    fuzz_play(game, &st, 20, &rng);
    free(text);
    return 0;
}
