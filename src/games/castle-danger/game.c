/* game.c — Castle Danger's options and traits, and its rp_game table with every field. */
#include "games/castle-danger/internal.h"

#include "core/check.h"
#include "ramparts/json.h"

/* ---- options ---- */

static const rp_option_spec cd_options[] = {
    {"turn-limit", RP_OPT_INT, 0, MAX_LIMIT, 0, NULL,
     "turns per player; when Red's last turn ends without a King hit the game is a draw "
     "(CD-15); 0 (the default): no limit (CD-16), or 25 with tournament=1 (CD-8)",
     NULL},
    {"tournament", RP_OPT_INT, 0, 1, 0, NULL,
     "1: formal play (CD-8): a 25-turn limit unless turn-limit gives another", NULL},
};

/* The options this game is played under: the limit in effect (25 under tournament=1). */
static void cd_config_of(const void *st, rp_config *cfg)
{
    const cd_state *s = st;
    cfg->players = 2;
    cfg->value[OPT_LIMIT] = s->limit;
    cfg->value[OPT_TOURNAMENT] = s->tournament;
}

/* ---- traits and the table ---- */

static const char *const cd_seat_names[] = {"Blue", "Red"};

/* A turn is at most an add, 27 moves (3 + 3 per Wizard, eight Wizards: CD-2, CD-3) and an
 * end; a side has `limit` turns (CD-15), or the tools' cap without a limit (CD-16: the rules
 * then set no bound, and tools stop the game there). */
static int cd_max_game_length(const void *st)
{
    const cd_state *s = st;
    const int turns_per_side = s->limit ? s->limit : CD_TOOL_TURN_CAP;
    return 2 * turns_per_side * (1 + MAX_MOVES + 1);
}

/* Debug builds check every invariant after each apply made through the table (core/check.h). */
RP_CHECKED_APPLY_DEFINE(cd_apply, rp_castle_danger)

/* What a viewer may know, what an action is, what it did (ramparts/json.h). */
static const struct rp_game_json cd_json = {
    .view = cd_view_json,
    .action = cd_action_json,
    .events = cd_events_json,
};
const rp_game rp_castle_danger = {
    .id = CD_ID,
    .title = "Castle Danger",
    .summary = "abstract strategy: Wizards give moves, Builders wall, Cannons fire at the King",
    .min_players = 2,
    .max_players = 2,
    .default_players = 2,
    .flags = RP_CAN_DRAW, /* no chance, nothing hidden; the turn limit draws (CD-8, CD-15) */
    .num_actions = A_COUNT,
    .state_size = sizeof(cd_state),
    .options = cd_options,
    .num_options = (int)(sizeof cd_options / sizeof cd_options[0]),
    .seat_names = cd_seat_names,
    /* A stated rules workload: formal play's 25-turn limit (CD-8), so every game ends by the
     * rules and the action count stays a signature of them. */
    .bench_options = "tournament=1",
    /* beginner: a search too short to see most threats two moves ahead (docs/ai.md, "The
     * beginner level") */
    .ai_levels = {"iters=60", "iters=300", "iters=1500", "iters=5000"},
    /* No chance: the side that moves first is the only asymmetry, so comparisons swap it. */
    .paired_seats = true,
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "The level matters much: no chance and nothing hidden (medium beat easy in "
                     "91% of 400 games, hard beat medium 78%).",
    /* CD-16: without a limit a game ends only when a King is hit; tools stop it after 100
     * turns per player (turn_number counts as CD-15 does) and report it unfinished. */
    .tool_turn_cap = CD_TOOL_TURN_CAP,
    .notation_tag = CD_NOTATION_TAG,
    .max_chance_outcomes = 0, /* no chance */
    .init = cd_init,
    .num_players = cd_num_players,
    .current_player = cd_current_player,
    .turn_number = cd_turn_number,
    .legal_actions = cd_legal_actions,
    .apply = RP_CHECKED_APPLY(cd_apply), /* checked after each apply in debug builds */
    .returns = cd_returns,
    .action_to_text = cd_action_to_text,
    .action_from_text = cd_action_from_text,
    .state_to_text = cd_state_to_text,
    .state_from_text = cd_state_from_text,
    .state_ok = cd_state_ok,
    .config_of = cd_config_of,
    .json = &cd_json,
    .determinize = cd_determinize,
    .render = cd_render,
    /* No numbers from options or data files beyond the turn limit, which the view shows. */
    .describe = NULL,
    .explain_illegal = cd_explain_illegal,
    /* The numbered list of legal actions serves prompts: no summary. */
    .moves_summary = NULL,
    .secret_names = cd_secret_names,
    .evaluate = cd_evaluate,
    .observe_action = NULL, /* every action is visible to everyone */
    .observation_size = CD_OBS_SIZE,
    .observation_fields = cd_obs_fields,
    .num_observation_fields = (int)(sizeof cd_obs_fields / sizeof cd_obs_fields[0]),
    .observation_tensor = cd_observation_tensor,
    .max_game_length = cd_max_game_length,
};
