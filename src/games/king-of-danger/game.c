/* game.c — King of Danger as an rp_game: its option (the first dealer) and traits, and the
 * table of every hook (each written out, with a comment where the value is a choice). */
#include "games/king-of-danger/internal.h"

#include "core/check.h"
#include "ramparts/json.h"

/* ---- options: the table (init in rules.c reads them by KD_OPT_*) and the options a state is
 * played under ---- */

static const rp_option_spec kd_options[] = {
    [KD_OPT_DEALER] = {"dealer", RP_OPT_INT, 0, KD_MAX_PLAYERS - 1, 0, NULL,
                       "seat of the first dealer (KD-2); the deal passes left each hand", NULL},
    /* text, not numbers: a research option of the command line and Python (the network
     * takes no text option), whose two numbers go together */
    [KD_OPT_DEAL] = {"deal", RP_OPT_TEXT, 0, 0, 0, NULL,
                     "two players: P+H, a short game of one hand dealing each seat P table "
                     "piles (0..4) and H hand cards (1..5), e.g. 1+1 (KD-P6; for exact solving)",
                     NULL},
};

/* The options this state is played under: its players and the first dealer, which its
 * current dealer and hand number imply (the deal passes left each hand, KD-2), so a record of
 * a loaded position replays under options that fit it. */
static void kd_config_of(const void *st, rp_config *cfg)
{
    const kd_state *s = st;
    const int n = s->players;
    const int passed = (int)((s->hand_number - 1u) % (unsigned)n);
    cfg->players = n;
    cfg->value[KD_OPT_DEALER] = (s->dealer + n - passed) % n;
    cfg->given[KD_OPT_DEAL] = s->short_piles != 0;
    cfg->text[KD_OPT_DEAL][0] = '\0';
    if (s->short_piles)
        kd_deal_text(s, cfg->text[KD_OPT_DEAL], sizeof cfg->text[KD_OPT_DEAL]);
}

/* Hands the information state makes room for. The rules set no bound: every hand adds a
 * castle of at least 1 to each score (KD-1, KD-9), so some score reaches 31 by hand 31, but a
 * shared highest score plays another hand (KD-14) with no limit. 40 leaves nine such hands. */
enum { KD_LENGTH_HANDS = KD_GOAL + 9 };

/* Each action plays one card, and a hand deals at most the 26 cards (KD-P4); a short game
 * (KD-P6) ends after its last hand and deals its smaller deck. */
static int kd_max_game_length(const void *st)
{
    const kd_state *s = st;
    if (s->last_hand == 0 || s->last_hand > KD_LENGTH_HANDS)
        return KD_LENGTH_HANDS * KD_CARDS;
    return s->last_hand * kd_popcount(kd_deck(s));
}

/* Debug builds check every invariant after each apply made through the table (core/check.h). */
RP_CHECKED_APPLY_DEFINE(kd_apply, rp_king_of_danger)

/* What a viewer may know, what an action is, what it did (ramparts/json.h). */
static const struct rp_game_json kd_json = {
    .view = kd_view_json,
    .action = kd_action_json,
    .events = kd_events_json,
};
const rp_game rp_king_of_danger = {
    .id = KD_ID,
    .title = "King of Danger",
    .summary = "trick taking with four Kings: build your castle, knock down the others (2-5)",
    .min_players = 2,
    .max_players = KD_MAX_PLAYERS,
    .default_players = 4,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = KD_NUM_ACTIONS,
    .state_size = sizeof(kd_state),
    .options = kd_options,
    .num_options = (int)(sizeof kd_options / sizeof kd_options[0]),
    .seat_names = kd_seat_names,
    .bench_options = NULL, /* the default game (four players) is the workload */
    /* hard at 30000: at three and four players 3000 did not beat medium; at five 30000 did
     * not either, and 120000 did over 800 games (docs/ai.md, King of Danger as it is now).
     * beginner at 5 with five: at 20 easy alone against four of it won only its fair share
     * (docs/ai.md, "The beginner level") */
    .ai_levels = {"iters=20,iters@5=5", "iters=200", "iters=1000", "iters=30000,iters@5=120000"},
    .paired_seats = false, /* the deal (KD-2) varies every game and passes left each hand */
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "Each level beats the one below (with two players, medium beat easy in "
                     "67.5% of 400 games, hard beat medium 78%; with four, hard alone against "
                     "three medium won 32%, fair share 25%); with five it is closest: hard, "
                     "searching four times as long there, won 24% of 800 games against four "
                     "medium, fair share 20%.",
    /* Every hand adds each castle (1..8) to its seat's score (KD-9), so the scores reach 31
     * and the rules end the game. */
    .tool_turn_cap = 0,
    .notation_tag = KD_NOTATION_TAG,
    .max_chance_outcomes = 26, /* the largest shuffle: the 26 cards (KD-2) */
    .init = kd_init,
    .num_players = kd_num_players,
    .current_player = kd_current_player,
    .turn_number = kd_turn_number,
    .legal_actions = kd_legal_actions,
    .apply = RP_CHECKED_APPLY(kd_apply), /* checked after each apply in debug builds */
    .returns = kd_returns,
    .action_to_text = kd_action_to_text,
    .action_from_text = kd_action_from_text,
    .state_to_text = kd_state_to_text,
    .state_from_text = kd_state_from_text,
    .state_ok = kd_state_ok,
    .config_of = kd_config_of,
    .json = &kd_json,
    .determinize = kd_determinize,
    .determinize_seats = kd_determinize_seats,
    .render = kd_render,
    .describe = NULL, /* no numbers come from options or data files */
    .explain_illegal = kd_explain_illegal,
    .moves_summary = NULL, /* a seat has few cards to play from: the numbered list is short */
    .secret_names = kd_secret_names,
    .score = kd_score,
    .evaluate = kd_evaluate,
    .observe_action = NULL, /* every card is played face up: everyone sees every action */
    .observation_size = KD_OBS_SIZE,
    .observation_fields = kd_obs_fields,
    .num_observation_fields = KD_OBS_FIELDS,
    .observation_tensor = kd_observation_tensor,
    .max_game_length = kd_max_game_length,
    .reseed = kd_reseed,
};
