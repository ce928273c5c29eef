/* game.c — Walls and Armies as an rp_game: its options and traits, and the table of every
 * hook (each written out, with a comment where the value is a choice). The model a new game
 * copies: docs/adding-a-game.md. */
#include "games/walls-and-armies/internal.h"

#include "core/check.h"
#include "ramparts/json.h"

/* ------------------------------------------------------------------------------------------
 * Options: the table (rows in internal.h) and the options a state is played under */

static const rp_option_spec wa_options[] = {
    [OPT_TURN_CAP] = {"turn-cap", RP_OPT_INT, 1, WA_MAX_CAP, WA_DEFAULT_CAP, NULL,
                      "turns before the game is scored on walls (WA-7)", NULL},
    [OPT_DECK] = {"deck", RP_OPT_INT, WA_MIN_DECK, WA_CARDS, WA_CARDS, NULL,
                  "cards in the deck: its lowest N, 2C 2D 2H 2S 3C ... (WA-P8; small decks are "
                  "for exact solving)",
                  NULL},
};

/* The options a state is played under: two players and its turn cap (notation carries it). */
static void wa_config_of(const void *st, rp_config *cfg)
{
    const wa_state *s = st;
    cfg->players = 2;
    cfg->value[OPT_TURN_CAP] = s->cap;
    cfg->value[OPT_DECK] = __builtin_popcountll(wa_cards_in_play(s));
}

/* A turn flips at most the attacker's army deck, which a deal fills with at most 10 cards (a
 * number card's value, WA-1, WA-5), each flip one attacker choice and one defender answer
 * (WA-3, WA-4); the turn cap ends the game (WA-7). */
static int wa_max_game_length(const void *st)
{
    return ((const wa_state *)st)->cap * 2 * 10;
}

/* Nothing hidden is known to anyone, owners included (WA-8): what no seat knows is what the
 * spectator cannot see. */
static void wa_reseed(void *st, rp_rng *rng)
{
    wa_determinize(st, RP_SPECTATOR, rng);
}

/* Debug builds check every invariant after each apply made through the table (core/check.h). */
RP_CHECKED_APPLY_DEFINE(wa_apply, rp_walls_and_armies)

/* What a viewer may know, what an action is, what it did (ramparts/json.h). */
static const struct rp_game_json wa_json = {
    .view = wa_view_json,
    .action = wa_action_json,
    .events = wa_events_json,
};
const rp_game rp_walls_and_armies = {
    .id = WA_ID,
    .title = "Walls and Armies",
    .summary = "two players, one deck: flip armies against shields and walls, counter, capture",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = WA_NUM_ACTIONS,
    .state_size = sizeof(wa_state),
    .options = wa_options,
    .num_options = (int)(sizeof wa_options / sizeof wa_options[0]),
    .seat_names = wa_seat_names,
    .bench_options = NULL, /* the default game is the workload */
    /* beginner: the smallest search (docs/ai.md, "The beginner level": no level that plays
     * sensibly loses 80% to easy here) */
    .ai_levels = {"iters=5", "iters=300", "iters=1500", "iters=5000"},
    .paired_seats = false, /* the deal, not the seat, decides who starts (WA-2) */
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "The level matters little: the deal decides most games (easy beat random in "
                     "64% of 400 games, but medium beat easy 50.5% and hard beat medium 49.5%).",
    .tool_turn_cap = 0, /* the rules' own turn cap ends every game (WA-7) */
    .notation_tag = WA_NOTATION_TAG,
    .max_chance_outcomes = 52, /* the largest shuffle: the 52 cards (WA-1) */
    .init = wa_init,
    .num_players = wa_num_players,
    .current_player = wa_current_player,
    .turn_number = wa_turn_number,
    .legal_actions = wa_legal_actions,
    .apply = RP_CHECKED_APPLY(wa_apply), /* checked after each apply in debug builds */
    .returns = wa_returns,
    .action_to_text = wa_action_to_text,
    .action_from_text = wa_action_from_text,
    .state_to_text = wa_state_to_text,
    .state_from_text = wa_state_from_text,
    .state_ok = wa_state_ok,
    .config_of = wa_config_of,
    .json = &wa_json,
    .determinize = wa_determinize,
    .render = wa_render,
    .describe = NULL, /* no numbers come from options or data beyond the cap */
    .explain_illegal = wa_explain_illegal,
    .moves_summary = NULL, /* the legal list is short */
    .secret_names = wa_secret_names,
    .evaluate = wa_evaluate,
    .observe_action = NULL, /* every action is seen by everyone */
    .observation_size = WA_OBS_SIZE,
    .observation_fields = wa_obs_fields,
    .num_observation_fields = WA_OBS_FIELDS,
    .observation_tensor = wa_observation_tensor,
    .max_game_length = wa_max_game_length,
    .reseed = wa_reseed,
};
