/* game.c — Rush the Wall as an rp_game: its options and traits, and the table of every hook
 * (each written out, with a comment where the value is a choice). The card sets the cards=
 * option names are rules.c's. */
#include "games/rush-the-wall/internal.h"

#include "core/check.h"
#include "ramparts/json.h"

/* ---- options ---- */

static const rp_option_spec rtw_options[] = {
    {"neutrals", RP_OPT_INT, 0, 2, 0, NULL,
     "neutral clans (RW-11); total clans 2..4; one player alone gets 1 unless told", NULL},
    {"variant", RP_OPT_CHOICE, 0, 1, 0, "standard|vogel",
     "vogel: Eric B. Vogel's original rules for ties and Dru'hid (RW-13)", NULL},
    {"cards", RP_OPT_TEXT, 0, 0, 0, NULL,
     "the card set: default, or nine strengths/eighteen forts "
     "(1,2,3,4,5,6,7,8,9/u2,s4,t8,l-1,...); cards=@FILE reads a card file (command line)",
     rtw_cards_from_file},
};

/* The options in effect (issue 18): the neutrals really in play (RTW-P5 gives a solo game
 * one), the variant, and the card set unless it is the default one. */
static void rtw_config_of(const void *st, rp_config *cfg)
{
    const rtw_state *s = st;
    cfg->players = s->players;
    cfg->players_given = true;
    cfg->value[OPT_NEUTRALS] = s->neutrals;
    cfg->given[OPT_NEUTRALS] = true;
    cfg->value[OPT_VARIANT] = s->variant;
    cfg->given[OPT_VARIANT] = true;
    cfg->given[OPT_CARDS] = !rtw_cards_are_default(&s->cards);
    cfg->text[OPT_CARDS][0] = '\0';
    if (cfg->given[OPT_CARDS])
        rtw_cards_to_value(&s->cards, cfg->text[OPT_CARDS], sizeof cfg->text[OPT_CARDS]);
}

/* ---- traits and the table ---- */

/* Per round (RW-5, RW-6) each player clan places its six warriors, and each of the six turns
 * asks at most one Qween charm, one Dru'hid pick, one Tax payment and one Axx choice (the
 * capturer's), one Signal and one Horsie discard per clan, and a Zvord re-placing of at most
 * five hidden warriors per clan: 6P + 6 (4 + 7P) actions with P player clans, three rounds. */
static int rtw_max_game_length(const void *st)
{
    const int clans = ((const rtw_state *)st)->players;
    return RTW_ROUNDS * (6 * clans + RTW_SLOTS * (4 + 7 * clans));
}

/* Debug builds check every invariant after each apply made through the table (core/check.h). */
RP_CHECKED_APPLY_DEFINE(rtw_apply, rp_rush_the_wall)

/* What a viewer may know, what an action is, what it did (ramparts/json.h). */
static const struct rp_game_json rtw_json = {
    .view = rtw_view_json,
    .action = rtw_action_json,
    .events = rtw_events_json,
};
const rp_game rp_rush_the_wall = {
    .id = RTW_ID,
    .title = "Rush the Wall",
    .summary = "Caledonian clans rush Hadrian's Wall: hidden planning, six reveals a round "
               "(1-4 clans, neutral clans, Vogel variant)",
    .min_players = 1,
    .max_players = 4,
    .default_players = 2,
    .flags = RP_CHANCE | RP_HIDDEN_INFO,
    .num_actions = RTW_NUM_ACTIONS,
    .state_size = sizeof(rtw_state),
    .options = rtw_options,
    .num_options = (int)(sizeof rtw_options / sizeof *rtw_options),
    .seat_names = clan_name, /* player seat i is clan colour i (RW-1) */
    .bench_options = NULL,   /* the default game (two clans) is the workload */
    /* Planned face down: the evaluation sees only public fort totals, flat while warriors
     * are placed, so the levels play out to the end of the game (docs/ai.md); beginner does
     * not, and so judges a few random moves on by totals that have not moved: short-sighted. */
    /* hard at 48000 iterations and exploration 2.0 (likely because playouts return only win
     * or lose and at a table of four a clan wins rarely; not tested alone): against medium it
     * won 71.0% of 400 games with two clans, 40.5% of 402 with three and 32.4% of 400 with four
     * (16000 at the default 0.4: 58.2%, 37.7%, 24.8%), about 0.1 s a move (docs/ai.md,
     * "Rush the Wall as it is now") */
    .ai_levels = {"iters=40", "iters=300,rollout=-1", "iters=1500,rollout=-1",
                  "iters=48000,rollout=-1,c=2.0"},
    .paired_seats = false, /* chance (the deal, the forts) weighs more than the seat */
    /* measured: docs/ai.md, The ladder */
    .ai_level_note = "Each level beats the one below, modestly: the draws weigh much (with two "
                     "clans medium beat easy in 62.5% of 400 games, hard beat medium 71%; hard "
                     "alone against two medium won 40.5% of 402, fair share 33%, and against "
                     "three 32% of 400, fair share 25%).",
    .tool_turn_cap = 0,   /* three rounds end every game (RW-12) */
    .simultaneous = true, /* planning and revealing are simultaneous (RW-5): no first player */
    .notation_tag = RTW_NOTATION_TAG,
    .max_chance_outcomes = 18, /* the largest shuffle: the 18 forts (RW-4) */
    .init = rtw_init,
    .num_players = rtw_num_players,
    .current_player = rtw_current_player,
    .turn_number = rtw_turn_number,
    .legal_actions = rtw_legal_actions,
    .apply = RP_CHECKED_APPLY(rtw_apply), /* checked after each apply in debug builds */
    .returns = rtw_returns,
    .action_to_text = rtw_action_to_text,
    .action_from_text = rtw_action_from_text,
    .state_to_text = rtw_state_to_text,
    .state_from_text = rtw_state_from_text,
    .state_ok = rtw_state_ok,
    .config_of = rtw_config_of,
    .json = &rtw_json,
    .determinize = rtw_determinize,
    .determinize_seats = rtw_determinize_seats,
    .render = rtw_render,
    .describe = rtw_describe, /* the card values in use: the rulebook gives only Arch'r's */
    .explain_illegal = rtw_explain_illegal,
    .moves_summary = NULL, /* at most nine legal moves */
    .secret_names = rtw_secret_names,
    .score = rtw_score,
    .evaluate = rtw_evaluate,
    .observe_action = rtw_observe_action,
    .observation_size = RTW_OBS_SIZE,
    .observation_fields = rtw_obs_fields,
    .num_observation_fields = (int)(sizeof rtw_obs_fields / sizeof rtw_obs_fields[0]),
    .observation_tensor = rtw_observation_tensor,
    .max_game_length = rtw_max_game_length,
    .reseed = rtw_reseed,
};
