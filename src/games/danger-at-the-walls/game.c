/* game.c — Danger at the Walls as an rp_game: its options (none) and traits, and the table of
 * every hook (each written out, with a comment where the value is a choice). */
#include "games/danger-at-the-walls/internal.h"

#include "core/check.h"
#include "ramparts/json.h"

/* ------------------------------------------------------------------------------------------ */
/* Options                                                                                    */

/* The game has no options of its own (players and seed only). */
static const rp_option_spec dw_options[1] = {{0}};

/* Always two players, and no other option. */
static void dw_config_of(const void *st, rp_config *cfg)
{
    (void)st;
    cfg->players = 2;
}

/* At most DW_MAX_TURNS plays (one action each, DW-12) and one draw action per card that can
 * be drawn: the main deck and both personal decks (DW-11, DW-P5). */
static int dw_max_game_length(const void *st)
{
    (void)st;
    return DW_MAX_TURNS + DW_MAIN + 2 * DW_PERSONAL;
}

/* Debug builds check every invariant after each apply made through the table (core/check.h). */
RP_CHECKED_APPLY_DEFINE(dw_apply, rp_danger_at_the_walls)

/* What a viewer may know, what an action is, what it did (ramparts/json.h). */
static const struct rp_game_json dw_json = {
    .view = dw_view_json,
    .action = dw_action_json,
    .events = dw_events_json,
};
const rp_game rp_danger_at_the_walls = {
    .id = DW_ID,
    .title = "Danger at the Walls",
    .summary = "2 players: attackers against defenders, control three of five walls",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = DW_NUM_ACTIONS,
    .state_size = sizeof(dw_state),
    .options = dw_options,
    .num_options = 0,
    .seat_names = dw_seat_names,
    .bench_options = NULL, /* the default game is the workload */
    /* beginner: a search too short to see most threats (docs/ai.md, "The beginner level") */
    .ai_levels = {"iters=30", "iters=300", "iters=2000", "iters=7000,bias=1"},
    /* Not paired: chance (the shuffle of DW-1) varies every deal; pairing is for games where
     * the seat alone decides much. */
    .paired_seats = false,
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "Each level plays clearly better than the one below (medium beat easy in "
                     "75% of 400 games, hard beat medium 69%).",
    .tool_turn_cap = 0, /* every game ends by DW-12 within DW_MAX_TURNS turns */
    .notation_tag = DW_NOTATION_TAG,
    /* the largest shuffle: the main deck with the hands and personal decks still in it (DW-1: 31
     * cards) */
    .max_chance_outcomes = 31,
    .init = dw_init,
    .num_players = dw_num_players,
    .current_player = dw_current_player,
    .turn_number = dw_turn_number,
    .legal_actions = dw_legal_actions,
    .apply = RP_CHECKED_APPLY(dw_apply), /* checked after each apply in debug builds */
    .returns = dw_returns,
    .action_to_text = dw_action_to_text,
    .action_from_text = dw_action_from_text,
    .state_to_text = dw_state_to_text,
    .state_from_text = dw_state_from_text,
    .state_ok = dw_state_ok,
    .config_of = dw_config_of,
    .json = &dw_json,
    .determinize = dw_determinize,
    .render = dw_render,
    .describe = NULL, /* no numbers come from options or data files */
    .explain_illegal = dw_explain_illegal,
    .moves_summary = dw_moves_summary, /* every Archer combination on five walls: a long list */
    .secret_names = dw_secret_names,
    .evaluate = dw_evaluate,
    /* every action is seen as played: a refill names its deck, never the card it draws (the
     * deck's top, hidden inside the state), so nothing is masked; without the hook the search
     * keys opponents' edges by the action itself and makes no call per legal action */
    .observe_action = NULL,
    .observation_size = DW_OBS_SIZE,
    .observation_fields = dw_obs_fields,
    .num_observation_fields = DW_OBS_FIELDS,
    .observation_tensor = dw_observation_tensor,
    .max_game_length = dw_max_game_length,
    .reseed = dw_reseed,
};
