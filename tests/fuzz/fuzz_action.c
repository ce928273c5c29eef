/* fuzz_action.c — libFuzzer target: a game's action notation (action_from_text and
 * rp_parse_move), built once per game. The first input byte picks one of a few positions
 * reached by seeded play; the rest is the move. A refused move says why; an accepted one is an
 * action id in range whose notation reads back to it when legal, and rp_apply_checked plays
 * exactly the legal ones, leaving the state untouched (with a reason) for the others. */
#include "fuzz.h"

#define POSITIONS 16

/* Positions of the game: seeds 1..POSITIONS, each played some random moves on. */
static const rp_state *position(const rp_game *game, unsigned index)
{
    static rp_state positions[POSITIONS];
    static bool made;
    if (!made) {
        for (unsigned i = 0; i < POSITIONS; i++) {
            rp_config cfg;
            rp_config_default(game, &cfg);
            cfg.seed = i + 1;
            cfg.players = game->min_players + (int)i % (game->max_players - game->min_players + 1);
            rp_error err = {{0}};
            FUZZ_CHECK(game->init(&positions[i], &cfg, &err) == RP_OK, "%s: init: %s", game->id,
                       err.msg);
            rp_rng rng;
            rp_rng_seed(&rng, i, 5);
            rp_action legal[RP_MAX_LEGAL];
            for (unsigned m = 0; m < i * 7 && game->current_player(&positions[i]) != RP_TERMINAL;
                 m++) {
                const int n = game->legal_actions(&positions[i], legal);
                game->apply(&positions[i], legal[rp_rng_below(&rng, (uint32_t)n)]);
            }
        }
        made = true;
    }
    return &positions[index % POSITIONS];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > FUZZ_MAX_INPUT)
        return 0;
    const rp_game *game = fuzz_game();
    rp_state st;
    rp_state_copy(game, &st, position(game, data[0]));
    char *text = fuzz_text(data + 1, size - 1);
    rp_error err = {{0}};
    rp_action action = RP_NO_ACTION;
    const int parsed = game->action_from_text(&st, text, &action, &err);
    FUZZ_CHECK(memcmp(&st, position(game, data[0]), game->state_size) == 0,
               "%s: reading a move changed the state", game->id);
    rp_action checked = RP_NO_ACTION;
    rp_error check_err = {{0}};
    const int move = rp_parse_move(game, &st, text, &checked, &check_err);
    if (parsed < 0) {
        FUZZ_CHECK(err.msg[0] != '\0', "%s: a move refused without a reason", game->id);
        FUZZ_CHECK(move < 0, "%s: rp_parse_move accepted '%s', which the game refuses", game->id,
                   text);
        free(text);
        return 0;
    }
    FUZZ_CHECK(action < game->num_actions, "%s: '%s' reads as action %u, out of range", game->id,
               text, (unsigned)action);
    rp_state played;
    rp_state_copy(game, &played, &st);
    rp_error apply_err = {{0}};
    const int applied = rp_apply_checked(game, &played, action, &apply_err);
    if (rp_is_legal(game, &st, action)) {
        char canonical[RP_ACTION_TEXT];
        rp_action again = RP_NO_ACTION;
        FUZZ_CHECK(
            game->action_to_text(&st, action, canonical, sizeof canonical) > 0 &&
                game->action_from_text(&st, canonical, &again, &err) == RP_OK && again == action,
            "%s: the notation of legal action %u does not read back", game->id, (unsigned)action);
        FUZZ_CHECK(move == RP_OK && checked == action,
                   "%s: rp_parse_move refuses the legal move '%s': %s", game->id, text,
                   check_err.msg);
        FUZZ_CHECK(applied == RP_OK, "%s: a legal move was refused: %s", game->id, apply_err.msg);
        rp_rng rng;
        fuzz_rng(&rng, data, size);
        fuzz_check_state(game, &played, &rng);
    } else {
        FUZZ_CHECK(move < 0 && check_err.msg[0] != '\0',
                   "%s: rp_parse_move accepted the illegal move '%s'", game->id, text);
        FUZZ_CHECK(applied < 0 && apply_err.msg[0] != '\0' &&
                       memcmp(&played, &st, game->state_size) == 0,
                   "%s: an illegal move was played or refused silently", game->id);
        char why[RP_ERROR_TEXT] = "";
        rp_explain_illegal(game, &st, action, why, sizeof why);
        FUZZ_CHECK(why[0] != '\0', "%s: no reason why '%s' is illegal", game->id, text);
    }
    free(text);
    return 0;
}
