/* test_king_of_danger.c — King of Danger against its rulebook, the shared rulings KD-1..KD-14 and
 * the project rulings KD-P1..KD-P5 (docs/rules/king-of-danger.md): hand-built tricks for every
 * winner case, points, dealing, the two-player table, hand and game ends, notations, views and
 * determinizing, plus property runs over random games for every player count. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "games/king_of_danger.h"
#include "support.h"

static const rp_game *const G = &rp_king_of_danger;

/* Long card names in id order, written out here from the rulebook's deck list so that the
 * tests do not read the game's own table. */
static const char *const NAMES[KD_CARDS] = {
    "king-of-danger", "king-of-walls", "king-of-cannons", "king-of-wizards",
    "walls-1", "walls-2", "walls-3", "walls-4", "walls-5", "walls-6", "walls-7",
    "cannons-1", "cannons-2", "cannons-3", "cannons-4", "cannons-5", "cannons-6", "cannons-7",
    "wizard-1", "wizard-2", "wizard-3", "wizard-4", "wizard-5", "wizard-6", "wizard-7",
    "wizard-8"};

static int card_id(const char *name, size_t len)
{
    for (int c = 0; c < KD_CARDS; c++)
        if (strlen(NAMES[c]) == len && strncmp(NAMES[c], name, len) == 0)
            return c;
    fail_msg("no card '%.*s'", (int)len, name);
    return -1;
}

static kd_state *K(rp_state *st)
{
    return (kd_state *)st;
}

/* Play moves separated by ',' ("walls-3,wizard-5 walls"); each must be legal. */
static void play_all(rp_state *st, const char *moves)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *m = strtok(copy, ","); m; m = strtok(NULL, ","))
        rp_test_play(G, st, m);
}

/* The legal moves at st as a set of cards (calls folded in). */
static uint32_t legal_cards(const rp_state *st)
{
    rp_action a[RP_MAX_LEGAL];
    int n = G->legal_actions(st, a);
    uint32_t m = 0;
    for (int i = 0; i < n; i++)
        m |= 1u << (a[i] & 31u);
    return m;
}

static uint32_t mask_of(const char *names)
{
    uint32_t m = 0;
    const char *p = names;
    while (*p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        m |= 1u << card_id(p, len);
        p += len + (end ? 1 : 0);
    }
    return m;
}

static void append_names(char *buf, size_t size, uint32_t m)
{
    size_t len = strlen(buf);
    if (!m)
        snprintf(buf + len, size - len, "-");
    for (bool first = true; m; m &= m - 1, first = false) {
        len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", first ? "" : ",", NAMES[__builtin_ctz(m)]);
    }
}

/* Build a 3-5 player position at the start of a hand where the cards of `moves` (one per seat,
 * from seat 1, the seat left of dealer 0) can be played in that order, and play them. The
 * other cards are dealt so that every play is legal: cards of the trick suit go only to seats
 * that follow it or play before it is set (KD-5). castles NULL: hand 1, every castle 3;
 * else hand 2 with those castle values and a score of 3 each. */
static void play_trick(rp_state *st, int n, const char *castles, const char *const *moves)
{
    int cards[KD_MAX_PLAYERS], suit = KD_SUIT_NONE, setter = -1;
    uint32_t used = 0;
    for (int i = 0; i < n; i++) {
        const char *sp = strchr(moves[i], ' ');
        cards[i] = card_id(moves[i], sp ? (size_t)(sp - moves[i]) : strlen(moves[i]));
        used |= 1u << cards[i];
        const uint32_t bit = 1u << cards[i];
        if (suit == KD_SUIT_NONE && !(bit & KD_KINGS)) {
            setter = i;
            suit = bit & KD_WALLS ? KD_SUIT_WALLS
                   : bit & KD_CANNONS ? KD_SUIT_CANNONS
                   : strcmp(sp + 1, "walls") == 0 ? KD_SUIT_WALLS : KD_SUIT_CANNONS;
        }
    }
    const uint32_t suit_mask = suit == KD_SUIT_WALLS ? KD_WALLS : suit == KD_SUIT_CANNONS
                                                                      ? KD_CANNONS : 0;
    const int per = KD_CARDS / n;
    uint32_t hand[KD_MAX_PLAYERS] = {0}, aside = 0;
    int room[KD_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        room[i] = per - 1;
    /* Suit cards first, to seats allowed to hold them; then everything else. */
    for (int pass = 0; pass < 2; pass++)
        for (int c = 0; c < KD_CARDS; c++) {
            const uint32_t bit = 1u << c;
            if ((used & bit) || ((bit & suit_mask) != 0) != (pass == 0))
                continue;
            int placed = 0;
            for (int i = 0; i < n && !placed; i++) {
                const bool may = !(bit & suit_mask) || i <= setter ||
                                 ((1u << cards[i]) & suit_mask);
                if (may && room[i] > 0) {
                    hand[i] |= bit;
                    room[i]--;
                    placed = 1;
                }
            }
            if (!placed)
                aside |= bit;
        }
    assert_int_equal(__builtin_popcount(aside), KD_CARDS % n);
    char text[RP_STATE_TEXT];
    snprintf(text, sizeof text, "kd1 players=%d dealer=0 hand=%d leader=1 suit=- trick=- castle=%s "
             "score=%s voids=%s hands=", n, castles ? 2 : 1,
             castles ? castles : n == 3 ? "3,3,3" : n == 4 ? "3,3,3,3" : "3,3,3,3,3",
             n == 3 ? (castles ? "3,3,3" : "0,0,0")
                    : n == 4 ? (castles ? "3,3,3,3" : "0,0,0,0")
                             : (castles ? "3,3,3,3,3" : "0,0,0,0,0"),
             n == 3 ? "-,-,-" : n == 4 ? "-,-,-,-" : "-,-,-,-,-");
    for (int seat = 0; seat < n; seat++) {
        /* moves[i] is played by seat (1 + i) % n */
        const int i = (seat - 1 + n) % n;
        if (seat)
            strcat(text, "/");
        append_names(text, sizeof text, hand[i] | (1u << cards[i]));
    }
    strcat(text, " aside=");
    append_names(text, sizeof text, aside);
    /* hand 2 starts with the last trick of hand 1 on show */
    strcat(text, " played=- last=");
    strcat(text, !castles ? "-"
                 : n == 3 ? "0:0:walls:walls-7,walls-1,walls-2"
                 : n == 4 ? "0:0:walls:walls-7,walls-1,walls-2,walls-3"
                          : "0:0:walls:walls-7,walls-1,walls-2,walls-3,walls-4");
    strcat(text, " rng=0000000000000005.0000000000000007");
    rp_test_load(G, st, text);
    for (int i = 0; i < n; i++)
        rp_test_play(G, st, moves[i]);
}

/* Castle values of a 4-player state as a number 0xABCD (seat 0 first) for compact asserts. */
static unsigned castles4(rp_state *st)
{
    const kd_state *s = K(st);
    return (unsigned)(s->castle[0] << 12 | s->castle[1] << 8 | s->castle[2] << 4 | s->castle[3]);
}

/* ---- the deck and dealing ---- */

/* Rulebook: "4 Kings (trump), 7 Walls (1-7), 7 Cannons (1-7), 8 Wizards (1-8)"; KD-2: "3 players
 * 8 each + 2 aside, 4 players 6 each + 2 aside, 5 players 5 each + 1 aside". */
static void test_kd2_deal_splits_the_26_cards(void **unused)
{
    (void)unused;
    const int per[6] = {0, 0, 13, 8, 6, 5}, aside[6] = {0, 0, 0, 2, 2, 1};
    for (int n = 3; n <= 5; n++) {
        rp_state st;
        char opts[64];
        snprintf(opts, sizeof opts, "players=%d seed=11", n);
        rp_test_init(G, &st, opts);
        const kd_state *s = K(&st);
        uint32_t all = s->aside;
        for (int p = 0; p < n; p++) {
            assert_int_equal(__builtin_popcount(s->hand[p]), per[n]);
            assert_int_equal(all & s->hand[p], 0);
            all |= s->hand[p];
        }
        assert_int_equal(__builtin_popcount(s->aside), aside[n]);
        assert_int_equal(all, (1u << 26) - 1);
        assert_int_equal(__builtin_popcount(all & KD_KINGS), 4);
        assert_int_equal(__builtin_popcount(all & KD_WALLS), 7);
        assert_int_equal(__builtin_popcount(all & KD_CANNONS), 7);
        assert_int_equal(__builtin_popcount(all & KD_WIZARDS), 8);
    }
}

/* KD-2: "The cards set aside are face up (public)": every seat's view lists them. */
static void test_kd2_cards_set_aside_are_public(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_init(G, &st, "players=4 seed=3");
    for (int p = 0; p < 4; p++) {
        char *v = rp_view_text(G, &st, p, false);
        for (uint32_t m = K(&st)->aside; m; m &= m - 1) {
            char quoted[40];
            snprintf(quoted, sizeof quoted, "\"%s\"", NAMES[__builtin_ctz(m)]);
            assert_non_null(strstr(strstr(v, "\"aside\""), quoted));
        }
        free(v);
    }
}

/* KD-2: "The first dealer is seat 0 unless set"; rulebook: "The player to the left of the
 * dealer starts the first trick". Default players=4 (issue). */
static void test_kd2_first_dealer_and_first_leader(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_init(G, &st, NULL);
    assert_int_equal(K(&st)->players, 4);
    assert_int_equal(K(&st)->dealer, 0);
    assert_int_equal(G->current_player(&st), 1);
    rp_test_init(G, &st, "players=3 dealer=2");
    assert_int_equal(K(&st)->dealer, 2);
    assert_int_equal(G->current_player(&st), 0);
}

static void test_kd2_dealer_option_must_name_a_seat(void **unused)
{
    (void)unused;
    rp_config cfg;
    rp_error err = {{0}};
    rp_config_default(G, &cfg);
    assert_int_equal(rp_config_set(G, &cfg, "players=3", &err), RP_OK);
    assert_int_equal(rp_config_set(G, &cfg, "dealer=3", &err), RP_OK);
    rp_state st;
    assert_true(G->init(&st, &cfg, &err) < 0);
    assert_non_null(strstr(err.msg, "dealer"));
}

/* KD-1: "Castle values start at 3 at the start of the game". */
static void test_kd1_castles_start_at_3(void **unused)
{
    (void)unused;
    for (int n = 2; n <= 5; n++) {
        rp_state st;
        char opts[64];
        snprintf(opts, sizeof opts, "players=%d", n);
        rp_test_init(G, &st, opts);
        for (int p = 0; p < n; p++) {
            assert_int_equal(K(&st)->castle[p], 3);
            assert_int_equal(K(&st)->score[p], 0);
        }
    }
}

/* KD-3: "4 face-down cards each, each topped by a face-up card, then a 5-card hand each";
 * rulebook: "All 26 cards are used in a 2-player game". */
static void test_kd3_two_player_layout(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_init(G, &st, "players=2 seed=8");
    const kd_state *s = K(&st);
    assert_int_equal(s->aside, 0);
    uint32_t all = 0;
    for (int p = 0; p < 2; p++) {
        assert_int_equal(__builtin_popcount(s->hand[p]), 5);
        assert_int_equal(__builtin_popcount(s->up[p]), 4);
        assert_int_equal(__builtin_popcount(s->down[p]), 4);
        for (int i = 0; i < KD_PILES; i++) {
            assert_true(s->up[p] & (1u << s->pile_top[p][i]));
            assert_true(s->down[p] & (1u << s->pile_under[p][i]));
        }
        all |= s->hand[p] | s->up[p] | s->down[p];
    }
    assert_int_equal(all, KD_ALL);
}

/* ---- two-player positions ---- */

/* Hand 1, dealer 0, seat 1 to lead. Seat 0: hand kd w1 w2 c1 c2, piles w3/c3 z1/z2 kw/w4 c4/z3;
 * seat 1: hand kc w5 c5 z4 z5, piles w6/c6 z6/z7 kz/w7 c7/z8 (face-up/face-down). */
static const char *const TWO =
    "kd1 players=2 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3 score=0,0 voids=-,- "
    "hands=king-of-danger,walls-1,walls-2,cannons-1,cannons-2/king-of-cannons,walls-5,cannons-5,"
    "wizard-4,wizard-5 table=walls-3+cannons-3,wizard-1+wizard-2,king-of-walls+walls-4,"
    "cannons-4+wizard-3/walls-6+cannons-6,wizard-6+wizard-7,king-of-wizards+walls-7,"
    "cannons-7+wizard-8 "
    "aside=- played=- last=- rng=0000000000000001.0000000000000003";

/* KD-3: "A player may play from hand or any of their face-up table cards; when a face-up card
 * is played the face-down card under it is turned face up at once." */
static void test_kd3_face_up_card_is_played_and_uncovers_the_one_under(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    assert_true(rp_test_is_legal(G, &st, "walls-6"));  /* face-up */
    assert_false(rp_test_is_legal(G, &st, "cannons-6")); /* face-down under it */
    rp_test_play(G, &st, "walls-6");
    assert_true(K(&st)->up[1] & mask_of("cannons-6"));
    assert_false(K(&st)->down[1] & mask_of("cannons-6"));
    /* KD-5 with KD-3: seat 0 follows Walls from hand or its face-up walls-3, never the
     * face-down walls-4. */
    assert_int_equal(legal_cards(&st), mask_of("walls-1,walls-2,walls-3"));
    rp_test_play(G, &st, "walls-3");
    assert_true(K(&st)->up[0] & mask_of("cannons-3"));
    /* the uncovered card is playable at once */
    assert_int_equal(G->current_player(&st), 1);
    assert_true(legal_cards(&st) & mask_of("cannons-6"));
}

/* KD-5: "a player who can play a card of that suit (from hand, or in two-player games from
 * their face-up table cards) must play one": here seat 0's only Walls are face-up. */
static void test_kd5_two_player_face_up_cards_must_follow(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st,
                 "kd1 players=2 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3 score=0,0 "
                 "voids=-,- hands=king-of-danger,cannons-1,cannons-2,wizard-1,wizard-2/"
                 "king-of-cannons,walls-5,cannons-5,wizard-4,wizard-5 "
                 "table=walls-3+cannons-3,walls-1+walls-2,king-of-walls+walls-4,"
                 "cannons-4+wizard-3/walls-6+cannons-6,wizard-6+wizard-7,king-of-wizards+walls-7,"
                 "cannons-7+wizard-8 aside=- played=- last=- "
                 "rng=0000000000000001.0000000000000003");
    rp_test_play(G, &st, "walls-5");
    assert_int_equal(legal_cards(&st), mask_of("walls-3,walls-1"));
}

/* KD-8: "two players: winner +1 only" on Walls tricks; "Cannons trick: every non-winner −1". */
static void test_kd8_two_player_points(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    play_all(&st, "walls-5,walls-1"); /* seat 1 wins with the higher Walls */
    assert_int_equal(K(&st)->castle[1], 4);
    assert_int_equal(K(&st)->castle[0], 3); /* played a Walls card, gains nothing */
    assert_int_equal(G->current_player(&st), 1);
    play_all(&st, "cannons-5,cannons-1"); /* seat 1 wins again */
    assert_int_equal(K(&st)->castle[1], 4);
    assert_int_equal(K(&st)->castle[0], 2);
}

/* KD-7: "A trick of only Kings is set aside: no points change and the player who led it leads
 * again. This holds even when it contains the King of Danger." (two players) */
static void test_kd7_two_player_kings_only_trick(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    play_all(&st, "king-of-cannons,king-of-danger");
    const kd_state *s = K(&st);
    assert_int_equal(s->castle[0], 3);
    assert_int_equal(s->castle[1], 3);
    assert_int_equal(G->current_player(&st), 1);
    assert_int_equal(s->last_winner, KD_NONE);
    assert_int_equal(s->played, mask_of("king-of-cannons,king-of-danger"));
}

/* KD-P3: face-down table cards are hidden from their owner too: seat 0's view never names the
 * cards under its own piles, and determinizing for seat 0 resamples them. */
static void test_kdp3_face_down_cards_hidden_from_owner(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    char *v = rp_view_text(G, &st, 0, false);
    for (uint32_t m = K(&st)->down[0] | K(&st)->down[1]; m; m &= m - 1) {
        char quoted[40];
        snprintf(quoted, sizeof quoted, "\"%s\"", NAMES[__builtin_ctz(m)]);
        assert_null(strstr(v, quoted));
    }
    free(v);
    rp_rng rng;
    rp_rng_seed(&rng, 1, 1);
    int changed = 0;
    for (int i = 0; i < 50; i++) {
        rp_state d;
        rp_state_copy(G, &d, &st);
        G->determinize(&d, 0, &rng);
        assert_int_equal(K(&d)->hand[0], K(&st)->hand[0]);
        assert_int_equal(K(&d)->up[0], K(&st)->up[0]);
        assert_int_equal(K(&d)->up[1], K(&st)->up[1]);
        changed += K(&d)->down[0] != K(&st)->down[0];
    }
    assert_true(changed > 0);
}

/* ---- trick suit and following (4 players, seat 1 leads) ---- */

/* Seat 0 kd w1 w2 c1 c2 z1; seat 1 kw w3 w4 c3 c4 z2; seat 2 kc w5 w6 c5 c6 z3;
 * seat 3 kz w7 c7 z4 z5 z6; aside z7 z8. */
static const char *const FOUR =
    "kd1 players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 score=0,0,0,0 "
    "voids=-,-,-,- hands=king-of-danger,walls-1,walls-2,cannons-1,cannons-2,wizard-1/"
    "king-of-walls,walls-3,walls-4,cannons-3,cannons-4,wizard-2/king-of-cannons,walls-5,walls-6,"
    "cannons-5,cannons-6,wizard-3/"
    "king-of-wizards,walls-7,cannons-7,wizard-4,wizard-5,wizard-6 aside=wizard-7,wizard-8 "
    "played=- last=- rng=0000000000000001.0000000000000003";

/* KD-4: "a Walls card makes a Walls trick, a Cannons card a Cannons trick". KD-5 and KD-11:
 * the follower must play that suit; its King of Cannons does not count as one. */
static void test_kd4_number_card_sets_trick_suit(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    rp_test_play(G, &st, "walls-3");
    assert_int_equal(K(&st)->suit, KD_SUIT_WALLS);
    assert_int_equal(legal_cards(&st), mask_of("walls-5,walls-6"));
    rp_test_load(G, &st, FOUR);
    rp_test_play(G, &st, "cannons-3");
    assert_int_equal(K(&st)->suit, KD_SUIT_CANNONS);
    assert_int_equal(legal_cards(&st), mask_of("cannons-5,cannons-6"));
}

/* KD-4: "a Wizard lets its player name Walls or Cannons"; rulebook: "This holds true even when
 * a Wizard's card was played first to name the Trick Suit." KD-P1: the call is part of the
 * Wizard's play, and a later Wizard names nothing. */
static void test_kd4_wizard_lead_names_the_suit(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    rp_error err = {{0}};
    rp_action a;
    assert_true(rp_parse_move(G, &st, "wizard-2", &a, &err) < 0);
    assert_non_null(strstr(err.msg, "walls"));
    assert_true(rp_test_is_legal(G, &st, "wizard-2 walls"));
    assert_true(rp_test_is_legal(G, &st, "wizard-2 cannons"));
    rp_test_play(G, &st, "wizard-2 cannons");
    assert_int_equal(K(&st)->suit, KD_SUIT_CANNONS);
    assert_int_equal(legal_cards(&st), mask_of("cannons-5,cannons-6"));
    play_all(&st, "cannons-5");
    /* seat 3 must follow with its only Cannons card; a Wizard with a call is refused */
    assert_int_equal(legal_cards(&st), mask_of("cannons-7"));
    assert_false(rp_test_is_legal(G, &st, "wizard-4 walls"));
    play_all(&st, "cannons-7,cannons-1");
    /* KD-6 (3): cannons-7 beats wizard-2 and cannons-5: seat 3; KD-8: the others lose 1 */
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x2223);
    assert_int_equal(G->current_player(&st), 3);
}

/* KD-4: "Until it is set, any card may be played" (Kings led); the first non-King sets it. */
static void test_kd4_kings_first_then_first_non_king_sets_suit(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    rp_test_play(G, &st, "king-of-walls");
    assert_int_equal(K(&st)->suit, KD_SUIT_NONE);
    assert_int_equal(legal_cards(&st), K(&st)->hand[2]);
    rp_test_play(G, &st, "king-of-cannons");
    assert_int_equal(legal_cards(&st), K(&st)->hand[3]);
    rp_test_play(G, &st, "wizard-4 walls");
    assert_int_equal(K(&st)->suit, KD_SUIT_WALLS);
    assert_int_equal(legal_cards(&st), mask_of("walls-1,walls-2"));
    rp_test_play(G, &st, "walls-1");
    /* KD-6 (2), KD-12: walls-1, played after the King of Walls, meets its condition; the
     * King of Cannons (no Cannons card) does not. Seat 1 wins: +2; seat 0's Walls +1. */
    assert_int_equal(K(&st)->last_winner, 1);
    assert_int_equal(castles4(&st), 0x4533);
}

/* KD-5: "Otherwise any card" — a seat without the suit may play anything, a King included;
 * KD-P2: it is then known to hold none of that suit for the rest of the hand. */
static void test_kd5_void_seat_may_play_any_card(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st,
                 "kd1 players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 "
                 "score=0,0,0,0 voids=-,-,-,- hands=king-of-danger,walls-1,walls-2,walls-3,"
                 "cannons-1,wizard-1/king-of-walls,walls-4,walls-5,cannons-2,cannons-3,wizard-2/"
                 "king-of-cannons,cannons-4,cannons-5,cannons-6,wizard-3,wizard-4/"
                 "king-of-wizards,walls-6,walls-7,cannons-7,wizard-5,wizard-6 aside=wizard-7,"
                 "wizard-8 played=- last=- "
                 "rng=0000000000000001.0000000000000003");
    rp_test_play(G, &st, "walls-4");
    assert_int_equal(legal_cards(&st), K(&st)->hand[2]);
    rp_test_play(G, &st, "king-of-cannons");
    assert_int_equal(K(&st)->voids[2], KD_VOID_WALLS);
    assert_int_equal(legal_cards(&st), mask_of("walls-6,walls-7"));
    play_all(&st, "walls-7,walls-1");
    /* KD-6: no Cannons card, so the King of Cannons fails; walls-7 wins for seat 3.
     * KD-8, KD-11: +2 to seat 3, +1 to seats 0 and 1 (Walls), nothing for the King. */
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x4435);
    assert_int_equal(K(&st)->voids[2], KD_VOID_WALLS); /* still known after the trick */
    char *v = rp_view_text(G, &st, 0, false);
    assert_non_null(strstr(v, "\"voids\":[[],[],[\"walls\"],[]]"));
    free(v);
}

/* ---- trick winners (KD-6), 4 players: moves from seat 1, then 2, 3, 0 ---- */

/* KD-6 (1): "the King of Danger" wins over everything, wherever it is played. */
static void test_kd6_king_of_danger_wins(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-7", "king-of-walls", "king-of-danger", "wizard-8"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x3435); /* KD-8: winner +2, walls-7 +1, King of Walls 0 */
    const char *b[] = {"king-of-danger", "walls-1", "king-of-walls", "walls-2"};
    play_trick(&st, 4, NULL, b);
    assert_int_equal(K(&st)->last_winner, 1);
    assert_int_equal(castles4(&st), 0x4543);
}

/* KD-6 (2): "King of Walls if any Walls card is in the trick". */
static void test_kd6_king_of_walls_condition(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-1", "king-of-walls", "walls-7", "wizard-8"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 2);
    assert_int_equal(castles4(&st), 0x3454);
}

/* KD-6 (2): "King of Cannons if any Cannons card". */
static void test_kd6_king_of_cannons_condition(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"cannons-1", "king-of-cannons", "cannons-7", "wizard-8"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 2);
    assert_int_equal(castles4(&st), 0x2232); /* Cannons: every non-winner -1 */
}

/* KD-6 (2): "King of Wizards if any Wizard". */
static void test_kd6_king_of_wizards_condition(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"wizard-1 walls", "walls-7", "king-of-wizards", "walls-2"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x4345);
}

/* KD-6: a King whose condition fails does not win; the numbers decide. */
static void test_kd6_king_without_its_condition_loses(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-1", "king-of-cannons", "walls-3", "wizard-2"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x3435);
}

/* KD-6 (2), KD-12: "the last King played whose condition holds"; "the whole finished trick,
 * cards played after the King ... included". */
static void test_kd12_last_king_with_condition_wins(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-1", "king-of-walls", "king-of-wizards", "wizard-3"};
    play_trick(&st, 4, NULL, a); /* wizard-3 comes after the King of Wizards */
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x3435);
    const char *b[] = {"king-of-wizards", "cannons-2", "king-of-cannons", "wizard-1"};
    play_trick(&st, 4, NULL, b);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x2223);
}

/* KD-11: "The Kings of Walls, Cannons and Wizards are Kings only" — a King of Walls does not
 * meet its own condition; here only the King of Wizards' condition holds. */
static void test_kd11_kings_are_not_suit_cards_for_conditions(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"king-of-walls", "king-of-cannons", "king-of-wizards", "wizard-2 walls"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->suit, KD_SUIT_NONE); /* trick finished */
    assert_int_equal(K(&st)->last_suit, KD_SUIT_WALLS);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x3335); /* nobody else played a Walls card */
}

/* KD-6 (3): "the highest number among cards of the trick suit and Wizards". */
static void test_kd6_highest_number_wins(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-2", "walls-5", "wizard-4", "walls-3"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 2);
    assert_int_equal(castles4(&st), 0x4453);
    const char *b[] = {"cannons-6", "wizard-7", "cannons-1", "cannons-2"};
    play_trick(&st, 4, NULL, b); /* a higher Wizard beats the trick suit */
    assert_int_equal(K(&st)->last_winner, 2);
    assert_int_equal(castles4(&st), 0x2232);
}

/* KD-6 (3): "a tie between a trick-suit card and a Wizard goes to the trick-suit card" —
 * whichever was played first. */
static void test_kd6_tie_goes_to_trick_suit_card(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-5", "wizard-5", "walls-1", "walls-2"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 1);
    const char *b[] = {"wizard-6 cannons", "cannons-6", "cannons-1", "cannons-2"};
    play_trick(&st, 4, NULL, b);
    assert_int_equal(K(&st)->last_winner, 2);
}

/* KD-13: "An off-suit number card ... never wins. Points depend on the trick suit alone". */
static void test_kd13_off_suit_number_never_wins(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-1", "cannons-7", "walls-2", "cannons-6"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, 3);
    assert_int_equal(castles4(&st), 0x3435); /* Cannons players gain nothing, lose nothing */
}

static void test_kd13_points_follow_the_called_suit(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"wizard-8 walls", "walls-1", "walls-2", "walls-3"};
    play_trick(&st, 4, NULL, a); /* a Wizard wins a Walls trick: Walls points */
    assert_int_equal(K(&st)->last_winner, 1);
    assert_int_equal(castles4(&st), 0x4544);
    const char *b[] = {"wizard-8 cannons", "cannons-1", "cannons-2", "cannons-3"};
    play_trick(&st, 4, NULL, b);
    assert_int_equal(K(&st)->last_winner, 1);
    assert_int_equal(castles4(&st), 0x2322);
}

/* KD-7: a trick of only Kings is set aside, King of Danger included; the leader leads again. */
static void test_kd7_kings_only_trick_is_set_aside(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"king-of-walls", "king-of-cannons", "king-of-danger", "king-of-wizards"};
    play_trick(&st, 4, NULL, a);
    assert_int_equal(K(&st)->last_winner, KD_NONE);
    assert_int_equal(castles4(&st), 0x3333);
    assert_int_equal(G->current_player(&st), 1);
    assert_int_equal(K(&st)->played, KD_KINGS);
    const char *b[] = {"king-of-danger", "king-of-walls", "king-of-cannons"};
    play_trick(&st, 3, NULL, b);
    assert_int_equal(K(&st)->last_winner, KD_NONE);
    assert_int_equal(G->current_player(&st), 1);
}

/* KD-8: "Walls trick: winner +2; each other player who played a Walls card +1 ... Clamp to
 * 1..8 after each trick." (5 players: the King of Danger wins a Walls trick) */
static void test_kd8_walls_points_five_players(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-7", "walls-1", "wizard-1", "walls-2", "king-of-danger"};
    play_trick(&st, 5, NULL, a);
    assert_int_equal(K(&st)->last_winner, 0);
    const uint8_t want[5] = {5, 4, 4, 3, 4};
    assert_memory_equal(K(&st)->castle, want, 5);
}

static void test_kd8_castle_values_clamp_to_1_and_8(void **unused)
{
    (void)unused;
    rp_state st;
    const char *a[] = {"walls-7", "walls-1", "walls-2", "walls-3"};
    play_trick(&st, 4, "1,8,8,1", a);
    assert_int_equal(castles4(&st), 0x2882);
    const char *b[] = {"cannons-7", "cannons-1", "cannons-2", "cannons-3"};
    play_trick(&st, 4, "1,1,8,8", b);
    assert_int_equal(castles4(&st), 0x1177);
}

/* ---- hand end and game end (KD-9, KD-14, KD-1) ---- */

/* Last trick of hand 5: seat 1 leads walls-2, then walls-3, walls-4 (seat 3 wins), walls-1. */
static void last_trick_state(rp_state *st, const char *castle, const char *score)
{
    char text[RP_STATE_TEXT];
    snprintf(text, sizeof text,
             "kd1 players=4 dealer=0 hand=5 leader=1 suit=- trick=- castle=%s score=%s "
             "voids=-,-,-,- hands=walls-1/walls-2/walls-3/walls-4 aside=wizard-7,wizard-8 "
             "played=king-of-danger,king-of-walls,king-of-cannons,king-of-wizards,walls-5,"
             "walls-6,walls-7,cannons-1,cannons-2,cannons-3,cannons-4,cannons-5,cannons-6,"
             "cannons-7,wizard-1,wizard-2,wizard-3,wizard-4,wizard-5,wizard-6 "
             "last=0:1:cannons:cannons-1,cannons-7,cannons-2,cannons-3 "
             "rng=0000000000000009.000000000000000b",
             castle, score);
    rp_test_load(G, st, text);
    play_all(st, "walls-2,walls-3,walls-4,walls-1");
}

/* KD-9: "each player adds their current castle value to their score. The game ends after a
 * hand in which some score is 31 or more; the highest score wins". */
static void test_kd9_game_ends_at_31(void **unused)
{
    (void)unused;
    rp_state st;
    last_trick_state(&st, "5,5,5,6", "20,20,20,24");
    assert_int_equal(castles4(&st), 0x6668);
    assert_int_equal(G->current_player(&st), RP_TERMINAL);
    const uint32_t want[4] = {26, 26, 26, 32};
    assert_memory_equal(K(&st)->score, want, sizeof want);
    double r[4];
    G->returns(&st, r);
    assert_true(r[3] == 1.0 && r[0] == 0.0 && r[1] == 0.0 && r[2] == 0.0);
    rp_action a[RP_MAX_LEGAL];
    assert_int_equal(G->legal_actions(&st, a), 0);
}

/* KD-9: below 31 the game goes on: KD-2 the deal passes left; KD-1 castle values carry over. */
static void test_kd9_next_hand_below_31_keeps_castles(void **unused)
{
    (void)unused;
    rp_state st;
    last_trick_state(&st, "1,2,3,4", "10,10,10,10");
    const kd_state *s = K(&st);
    assert_int_equal(G->current_player(&st), 2); /* left of the new dealer, seat 1 */
    assert_int_equal(s->dealer, 1);
    assert_int_equal(s->hand_number, 6);
    assert_int_equal(castles4(&st), 0x2346);
    const uint32_t want[4] = {12, 13, 14, 16};
    assert_memory_equal(s->score, want, sizeof want);
    for (int p = 0; p < 4; p++)
        assert_int_equal(__builtin_popcount(s->hand[p]), 6);
    assert_int_equal(s->played, 0);
}

/* KD-9: "if the highest is shared, another hand is played"; KD-14: it is an ordinary hand. */
static void test_kd14_tie_for_the_lead_plays_another_hand(void **unused)
{
    (void)unused;
    rp_state st;
    last_trick_state(&st, "5,5,5,6", "25,20,20,23");
    const kd_state *s = K(&st);
    assert_int_equal(s->score[0], 31);
    assert_int_equal(s->score[3], 31);
    assert_false(s->over);
    assert_int_equal(s->dealer, 1);
    assert_int_equal(castles4(&st), 0x6668);
    assert_int_equal(G->current_player(&st), 2);
}

/* KD-14: "The end test of KD-9 runs only at the end of a hand": scores do not move during a
 * hand, so a castle at 8 with a score of 30 mid-hand ends nothing. */
static void test_kd14_no_end_test_mid_hand(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st,
                 "kd1 players=4 dealer=0 hand=5 leader=1 suit=- trick=- castle=7,7,7,7 "
                 "score=30,10,10,10 voids=-,-,-,- hands=king-of-danger,walls-1/king-of-walls,"
                 "walls-2/king-of-cannons,walls-3/king-of-wizards,walls-4 aside=wizard-7,wizard-8 "
                 "played=walls-5,walls-6,walls-7,cannons-1,cannons-2,cannons-3,cannons-4,"
                 "cannons-5,cannons-6,cannons-7,wizard-1,wizard-2,wizard-3,wizard-4,wizard-5,"
                 "wizard-6 "
                 "last=0:1:cannons:cannons-1,cannons-7,cannons-2,cannons-3 "
                 "rng=0000000000000009.000000000000000b");
    play_all(&st, "walls-2,walls-3,walls-4,walls-1");
    assert_int_equal(castles4(&st), 0x8888);
    assert_int_equal(G->current_player(&st), 3);
    assert_int_equal(K(&st)->score[0], 30);
}

/* KD-P5: a Kings-only trick that is the last of the hand still ends the hand. */
static void test_kdp5_kings_only_last_trick_ends_the_hand(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st,
                 "kd1 players=4 dealer=0 hand=5 leader=1 suit=- trick=- castle=3,3,3,3 "
                 "score=10,10,10,10 voids=-,-,-,- hands=king-of-danger/king-of-walls/"
                 "king-of-cannons/king-of-wizards aside=wizard-7,wizard-8 "
                 "played=walls-1,walls-2,walls-3,walls-4,walls-5,walls-6,walls-7,cannons-1,"
                 "cannons-2,cannons-3,cannons-4,cannons-5,cannons-6,cannons-7,wizard-1,wizard-2,"
                 "wizard-3,wizard-4,wizard-5,wizard-6 "
                 "last=0:1:cannons:cannons-1,cannons-7,cannons-2,cannons-3 "
                 "rng=0000000000000009.000000000000000b");
    play_all(&st, "king-of-walls,king-of-cannons,king-of-wizards,king-of-danger");
    assert_int_equal(K(&st)->hand_number, 6);
    assert_int_equal(K(&st)->score[0], 13);
    assert_int_equal(castles4(&st), 0x3333);
}

/* KD-P4: a two-player hand is 13 tricks: the face-down cards come into play and the hand ends
 * only when hands and tables are empty. */
static void test_kdp4_two_player_hand_uses_all_cards(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_init(G, &st, "players=2 seed=21");
    rp_rng rng;
    rp_rng_seed(&rng, 4, 4);
    int plays = 0;
    while (K(&st)->hand_number == 1 && !K(&st)->over) {
        rp_test_random_step(G, &st, &rng);
        plays++;
    }
    assert_int_equal(plays, 26);
}

/* ---- information (KD-10) ---- */

/* KD-10: "Hands and face-down table cards are hidden; face-up table cards, cards set aside,
 * cards played, castle values and scores are public." Views never name a card another seat
 * holds, and two states that differ only in hidden cards look the same. */
static void test_kd10_views_hide_other_hands(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 77, 1);
    for (int n = 2; n <= 5; n++) {
        for (int g = 0; g < 20; g++) {
            rp_state st;
            char opts[64];
            snprintf(opts, sizeof opts, "players=%d seed=%d", n, g);
            rp_test_init(G, &st, opts);
            int moves = (int)rp_rng_below(&rng, 40);
            for (int m = 0; m < moves && !K(&st)->over; m++) {
                rp_action a[RP_MAX_LEGAL];
                int k = G->legal_actions(&st, a);
                G->apply(&st, a[rp_rng_below(&rng, (uint32_t)k)]);
            }
            const kd_state *s = K(&st);
            for (int p = 0; p < n; p++) {
                char *text = rp_view_text(G, &st, p, false);
                /* the game's id contains a card name: look from "players" on */
                char *v = strstr(text, "\"players\"");
                assert_non_null(v);
                /* the last trick may be from the previous hand, whose cards are dealt again */
                char *last = strstr(v, "\"last_trick\"");
                assert_non_null(last);
                *last = '\0';
                uint32_t hidden = n == 2 ? s->down[0] | s->down[1] : 0;
                for (int q = 0; q < n; q++)
                    if (q != p)
                        hidden |= s->hand[q];
                for (uint32_t m = hidden; m; m &= m - 1) {
                    char quoted[40];
                    snprintf(quoted, sizeof quoted, "\"%s\"", NAMES[__builtin_ctz(m)]);
                    if (strstr(v, quoted))
                        fail_msg("seat %d sees hidden %s in %s", p, quoted, v);
                }
                free(text);
            }
        }
    }
}

/* KD-10 with KD-P2: determinizing keeps the seat's own hand, all public cards and every known
 * void, and gives other hands only cards the seat has not seen. */
static void test_kdp2_determinize_respects_known_voids(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st,
                 "kd1 players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 "
                 "score=0,0,0,0 voids=-,-,-,- hands=king-of-danger,walls-1,walls-2,walls-3,"
                 "cannons-1,wizard-1/king-of-walls,walls-4,walls-5,cannons-2,cannons-3,wizard-2/"
                 "king-of-cannons,cannons-4,cannons-5,cannons-6,wizard-3,wizard-4/"
                 "king-of-wizards,walls-6,walls-7,cannons-7,wizard-5,wizard-6 aside=wizard-7,"
                 "wizard-8 played=- last=- "
                 "rng=0000000000000001.0000000000000003");
    play_all(&st, "walls-4,king-of-cannons");
    rp_rng rng;
    rp_rng_seed(&rng, 5, 5);
    int moved = 0;
    for (int i = 0; i < 200; i++) {
        rp_state d;
        rp_state_copy(G, &d, &st);
        G->determinize(&d, 0, &rng);
        const kd_state *s = K(&d);
        assert_int_equal(s->hand[0], K(&st)->hand[0]);
        assert_int_equal(s->hand[2] & KD_WALLS, 0);
        for (int p = 1; p < 4; p++)
            assert_int_equal(__builtin_popcount(s->hand[p]),
                             __builtin_popcount(K(&st)->hand[p]));
        assert_int_equal(s->hand[1] | s->hand[2] | s->hand[3],
                         K(&st)->hand[1] | K(&st)->hand[2] | K(&st)->hand[3]);
        moved += s->hand[1] != K(&st)->hand[1];
    }
    assert_true(moved > 0);
}

/* ---- notations ---- */

static void test_action_notation_round_trips_and_refuses(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    char buf[RP_ACTION_TEXT];
    rp_action a;
    rp_error err = {{0}};
    /* KD-P1: a leading Wizard's play names the suit */
    assert_int_equal(G->action_from_text(&st, "wizard-2 walls", &a, &err), RP_OK);
    assert_true(G->action_to_text(&st, a, buf, sizeof buf) > 0);
    assert_string_equal(buf, "wizard-2 walls");
    assert_int_equal(G->action_from_text(&st, "  Z2   c ", &a, &err), RP_OK);
    assert_true(G->action_to_text(&st, a, buf, sizeof buf) > 0);
    assert_string_equal(buf, "wizard-2 cannons");
    assert_int_equal(G->action_from_text(&st, "kw", &a, &err), RP_OK);
    assert_true(G->action_to_text(&st, a, buf, sizeof buf) > 0);
    assert_string_equal(buf, "king-of-walls");
    static const char *const bad[] = {"walls-8", "wizard-9 walls", "walls-3 walls",
                                      "wizard-2 hearts", "wizard-2 walls extra", "king"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err.msg[0] = '\0';
        if (G->action_from_text(&st, bad[i], &a, &err) >= 0)
            fail_msg("accepted '%s'", bad[i]);
        assert_true(strlen(err.msg) > 0);
    }
    rp_test_play(G, &st, "walls-3");
    assert_true(G->action_from_text(&st, "wizard-3 walls", &a, &err) < 0);
    assert_non_null(strstr(err.msg, "already"));
}

/* Every field is checked: each text below breaks one rule and is refused with a message,
 * leaving the state untouched. */
static void test_state_text_refuses_inconsistent_states(void **unused)
{
    (void)unused;
    static const struct {
        const char *from, *to, *why;
    } edits[] = {
        {"castle=3,3,3,3", "castle=3,3,3,9", "castle"},
        {"castle=3,3,3,3", "castle=3,3,3,2", "castle"},
        {"king-of-wizards,walls-7,cannons-7", "king-of-wizards,walls-1,cannons-7", "two places"},
        {"aside=wizard-7,wizard-8", "aside=wizard-7", "missing"},
        {"cannons-2,wizard-1/", "cannons-2,wizard-1,wizard-7/", "dealt 6"},
        {"leader=1", "leader=2", "leader"},
        {"suit=-", "suit=walls", "suit"},
        {"score=0,0,0,0", "score=0,0,0,1", "score"},
        {"voids=-,-,-,-", "voids=walls,-,-,-", "void"},
        {"players=4", "players=6", "players"},
        {"0000000000000003", "0000000000000004", "odd"},
        {"last=-", "last=0:0:walls:walls-7,walls-1,walls-2,walls-3", "last"},
        {" rng=", " extra=1 rng=", "rng"},
    };
    rp_state st, before;
    rp_test_load(G, &st, FOUR);
    rp_state_copy(G, &before, &st);
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char text[RP_STATE_TEXT];
        const char *at = strstr(FOUR, edits[i].from);
        assert_non_null(at);
        snprintf(text, sizeof text, "%.*s%s%s", (int)(at - FOUR), FOUR, edits[i].to,
                 at + strlen(edits[i].from));
        rp_error err = {{0}};
        if (G->state_from_text(&st, text, &err) >= 0)
            fail_msg("accepted a state with %s: %s", edits[i].to, text);
        if (!strstr(err.msg, edits[i].why))
            fail_msg("message '%s' for %s does not mention %s", err.msg, edits[i].to,
                     edits[i].why);
        assert_memory_equal(&st, &before, G->state_size);
    }
    /* a trick with an off-suit play needs the void mark, and no suit card in that hand */
    rp_error err = {{0}};
    assert_true(G->state_from_text(
                    &st,
                    "kd1 players=4 dealer=0 hand=1 leader=1 suit=walls trick=walls-3,"
                    "king-of-cannons castle=3,3,3,3 "
                    "score=0,0,0,0 voids=-,-,-,- hands=king-of-danger,walls-1,walls-2,cannons-1,"
                    "cannons-2,wizard-1/king-of-walls,walls-4,cannons-3,cannons-4,wizard-2/"
                    "walls-5,walls-6,cannons-5,cannons-6,wizard-3/king-of-wizards,walls-7,"
                    "cannons-7,wizard-4,wizard-5,wizard-6 aside=wizard-7,wizard-8 played=- last=- "
                    "rng=0000000000000001.0000000000000003",
                    &err) < 0);
    assert_non_null(strstr(err.msg, "void"));
}

/* The notation of a two-player position reads back identically and keeps the piles. */
static void test_state_text_two_player_round_trip(void **unused)
{
    (void)unused;
    rp_state st, back;
    rp_test_load(G, &st, TWO);
    play_all(&st, "walls-6,walls-3");
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&st, text, sizeof text) > 0);
    assert_non_null(strstr(text, "table=cannons-3,wizard-1+wizard-2,king-of-walls+walls-4,"
                                 "cannons-4+wizard-3/cannons-6,wizard-6+wizard-7,"
                                 "king-of-wizards+walls-7,cannons-7+wizard-8"));
    memset(&back, 0x55, sizeof back);
    rp_test_load(G, &back, text);
    assert_memory_equal(&st, &back, G->state_size);
}

/* ---- render and evaluate ---- */

static char *render_text(const rp_state *st, int player, bool color)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    G->render(st, player, f, color);
    fclose(f);
    return buf;
}

/* The issue: a human sees "the trick so far, the trick suit, every castle value and score". */
static void test_render_shows_trick_suit_castles_and_scores(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    play_all(&st, "wizard-2 cannons,cannons-5");
    char *t = render_text(&st, 3, false);
    assert_non_null(strstr(t, "wizard-2"));
    assert_non_null(strstr(t, "cannons-5"));
    assert_non_null(strstr(t, "Cannons"));
    assert_non_null(strstr(t, "castle"));
    assert_non_null(strstr(t, "score"));
    assert_non_null(strstr(t, "king-of-wizards")); /* seat 3's own hand */
    assert_null(strstr(t, "king-of-danger"));      /* seat 0's hand is hidden */
    assert_null(strchr(t, '\033'));
    free(t);
    t = render_text(&st, 3, true);
    assert_non_null(strchr(t, '\033'));
    free(t);
}

/* evaluate stays in [0, 1] and reads only what the player sees. */
static void test_evaluate_in_range_and_blind_to_hidden_cards(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 9, 9);
    for (int g = 0; g < 30; g++) {
        rp_state st;
        char opts[64];
        snprintf(opts, sizeof opts, "players=%d seed=%d", 2 + g % 4, g);
        rp_test_init(G, &st, opts);
        while (!K(&st)->over) {
            for (int p = 0; p < K(&st)->players; p++) {
                const double e = G->evaluate(&st, p);
                assert_true(e >= 0.0 && e <= 1.0);
                rp_state d;
                rp_state_copy(G, &d, &st);
                G->determinize(&d, p, &rng);
                assert_true(G->evaluate(&d, p) == e);
            }
            rp_test_random_step(G, &st, &rng);
        }
        double r[KD_MAX_PLAYERS];
        G->returns(&st, r);
        for (int p = 0; p < K(&st)->players; p++)
            assert_true(G->evaluate(&st, p) == r[p]);
    }
}

/* ---- property runs ---- */

/* The game's own invariants: all 26 cards in exactly one place, castle values in 1..8, every
 * seat holding the number of cards the trick position needs, known voids true. */
static void check_invariants(const kd_state *s)
{
    const int n = s->players;
    uint32_t seen = s->aside | s->played;
    assert_int_equal(s->aside & s->played, 0);
    uint32_t trick = 0;
    for (int i = 0; i < s->trick_len; i++)
        trick |= 1u << s->trick[i];
    assert_int_equal(trick, s->trick_mask);
    assert_int_equal(seen & trick, 0);
    seen |= trick;
    int held[KD_MAX_PLAYERS];
    for (int p = 0; p < n; p++) {
        uint32_t mine = s->hand[p] | (n == 2 ? s->up[p] | s->down[p] : 0);
        if (n == 2)
            assert_int_equal(__builtin_popcount(mine), __builtin_popcount(s->hand[p]) +
                                                       __builtin_popcount(s->up[p]) +
                                                       __builtin_popcount(s->down[p]));
        assert_int_equal(seen & mine, 0);
        seen |= mine;
        held[p] = __builtin_popcount(mine);
        assert_true(s->castle[p] >= 1 && s->castle[p] <= 8);
        if (s->voids[p] & KD_VOID_WALLS)
            assert_int_equal(s->hand[p] & KD_WALLS, 0);
        if (s->voids[p] & KD_VOID_CANNONS)
            assert_int_equal(s->hand[p] & KD_CANNONS, 0);
    }
    assert_int_equal(seen, KD_ALL);
    assert_int_equal(__builtin_popcount(s->aside), 26 % n);
    if (!s->over)
        for (int i = 0; i < n; i++)
            assert_int_equal(held[(s->leader + i) % n] + (i < s->trick_len),
                             held[s->leader] + (s->trick_len > 0));
}

/* The full-state notation reads back as the very same bytes. */
static void check_round_trip(const rp_state *st)
{
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(st, text, sizeof text) > 0);
    rp_state back;
    memset(&back, 0x6B, sizeof back);
    rp_test_load(G, &back, text);
    assert_memory_equal(&back, st, G->state_size);
}

/* rp_test_games(10000) random games: the game's invariants and the notation checks
 * (rp_test_check_notation: every legal move's notation, the full-state round trip) at every
 * step of every game; the views against determinizing (rp_test_check_views) at every step of
 * the first 1/25 of the games and at one random step of every other game — a view costs about
 * 0.1 ms under ASan and a 4-player step builds eight, so views at every step of all 10,000
 * games would take over half an hour. */
static void property_run(int players)
{
    const int games = rp_test_games(10000);
    const int checked = games / 25 + 1;
    rp_rng rng;
    rp_rng_seed(&rng, (uint64_t)players, 17);
    for (int g = 0; g < games; g++) {
        rp_state st;
        char opts[48];
        snprintf(opts, sizeof opts, "players=%d seed=%d", players, g);
        rp_test_init(G, &st, opts);
        uint32_t last_scores[KD_MAX_PLAYERS] = {0};
        const int probe = 1 + (int)rp_rng_below(&rng, 60);
        int steps = 0;
        while (G->current_player(&st) != RP_TERMINAL) {
            assert_true(++steps < 100000);
            check_invariants(K(&st));
            rp_test_check_notation(G, &st);
            if (g < checked || steps == probe)
                rp_test_check_views(G, &st, &rng);
            for (int p = 0; p < players; p++) {
                assert_true(K(&st)->score[p] >= last_scores[p]);
                last_scores[p] = K(&st)->score[p];
            }
            rp_test_random_step(G, &st, &rng);
        }
        check_invariants(K(&st));
        check_round_trip(&st);
        rp_test_check_returns(G, &st);
        /* KD-9: the game ends with a sole highest score of at least 31 */
        const kd_state *s = K(&st);
        for (int p = 0; p < players; p++)
            if (p != s->winner)
                assert_true(s->score[p] < s->score[s->winner]);
        assert_true(s->score[s->winner] >= 31);
    }
}

static void test_property_two_players(void **unused)
{
    (void)unused;
    property_run(2);
}

static void test_property_three_players(void **unused)
{
    (void)unused;
    property_run(3);
}

static void test_property_four_players(void **unused)
{
    (void)unused;
    property_run(4);
}

static void test_property_five_players(void **unused)
{
    (void)unused;
    property_run(5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kd2_deal_splits_the_26_cards),
        cmocka_unit_test(test_kd2_cards_set_aside_are_public),
        cmocka_unit_test(test_kd2_first_dealer_and_first_leader),
        cmocka_unit_test(test_kd2_dealer_option_must_name_a_seat),
        cmocka_unit_test(test_kd1_castles_start_at_3),
        cmocka_unit_test(test_kd3_two_player_layout),
        cmocka_unit_test(test_kd3_face_up_card_is_played_and_uncovers_the_one_under),
        cmocka_unit_test(test_kd5_two_player_face_up_cards_must_follow),
        cmocka_unit_test(test_kd8_two_player_points),
        cmocka_unit_test(test_kd7_two_player_kings_only_trick),
        cmocka_unit_test(test_kdp3_face_down_cards_hidden_from_owner),
        cmocka_unit_test(test_kd4_number_card_sets_trick_suit),
        cmocka_unit_test(test_kd4_wizard_lead_names_the_suit),
        cmocka_unit_test(test_kd4_kings_first_then_first_non_king_sets_suit),
        cmocka_unit_test(test_kd5_void_seat_may_play_any_card),
        cmocka_unit_test(test_kd6_king_of_danger_wins),
        cmocka_unit_test(test_kd6_king_of_walls_condition),
        cmocka_unit_test(test_kd6_king_of_cannons_condition),
        cmocka_unit_test(test_kd6_king_of_wizards_condition),
        cmocka_unit_test(test_kd6_king_without_its_condition_loses),
        cmocka_unit_test(test_kd12_last_king_with_condition_wins),
        cmocka_unit_test(test_kd11_kings_are_not_suit_cards_for_conditions),
        cmocka_unit_test(test_kd6_highest_number_wins),
        cmocka_unit_test(test_kd6_tie_goes_to_trick_suit_card),
        cmocka_unit_test(test_kd13_off_suit_number_never_wins),
        cmocka_unit_test(test_kd13_points_follow_the_called_suit),
        cmocka_unit_test(test_kd7_kings_only_trick_is_set_aside),
        cmocka_unit_test(test_kd8_walls_points_five_players),
        cmocka_unit_test(test_kd8_castle_values_clamp_to_1_and_8),
        cmocka_unit_test(test_kd9_game_ends_at_31),
        cmocka_unit_test(test_kd9_next_hand_below_31_keeps_castles),
        cmocka_unit_test(test_kd14_tie_for_the_lead_plays_another_hand),
        cmocka_unit_test(test_kd14_no_end_test_mid_hand),
        cmocka_unit_test(test_kdp5_kings_only_last_trick_ends_the_hand),
        cmocka_unit_test(test_kdp4_two_player_hand_uses_all_cards),
        cmocka_unit_test(test_kd10_views_hide_other_hands),
        cmocka_unit_test(test_kdp2_determinize_respects_known_voids),
        cmocka_unit_test(test_action_notation_round_trips_and_refuses),
        cmocka_unit_test(test_state_text_refuses_inconsistent_states),
        cmocka_unit_test(test_state_text_two_player_round_trip),
        cmocka_unit_test(test_render_shows_trick_suit_castles_and_scores),
        cmocka_unit_test(test_evaluate_in_range_and_blind_to_hidden_cards),
        cmocka_unit_test(test_property_two_players),
        cmocka_unit_test(test_property_three_players),
        cmocka_unit_test(test_property_four_players),
        cmocka_unit_test(test_property_five_players),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
