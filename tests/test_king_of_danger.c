/* test_king_of_danger.c — King of Danger against its rulebook, the shared rulings KD-1..KD-14 and
 * the project rulings KD-P1..KD-P6 (docs/rules/king-of-danger.md): hand-built tricks for every
 * winner case, points, dealing, the two-player table, hand and game ends, the kd1 notation and
 * its invariants, options in effect, views for seats and the spectator, actions as data, the
 * exact events each viewer is told, illegal-move explanations and secret names, plus property
 * runs over random games for every player count. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "games/king-of-danger/internal.h"
#include "support.h"

static const rp_game *const G = &rp_king_of_danger;

/* Long card names in id order, written out here from the rulebook's deck list so that the
 * tests do not read the game's own table. */
static const char *const NAMES[KD_CARDS] = {
    "king-of-danger", "king-of-walls", "king-of-cannons", "king-of-wizards", "walls-1",
    "walls-2",        "walls-3",       "walls-4",         "walls-5",         "walls-6",
    "walls-7",        "cannons-1",     "cannons-2",       "cannons-3",       "cannons-4",
    "cannons-5",      "cannons-6",     "cannons-7",       "wizard-1",        "wizard-2",
    "wizard-3",       "wizard-4",      "wizard-5",        "wizard-6",        "wizard-7",
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
 * from seat 1, the seat left of dealer 0) can be played in that order, and play all but the
 * last (whose events the event tests look at). The
 * other cards are dealt so that every play is legal: cards of the trick suit go only to seats
 * that follow it or play before it is set (KD-5). castles NULL: hand 1, every castle 3;
 * else hand 2 with those castle values and a score of 3 each. */
static void play_trick_but_last(rp_state *st, int n, const char *castles, const char *const *moves)
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
            if (bit & KD_WALLS)
                suit = KD_SUIT_WALLS;
            else if (bit & KD_CANNONS)
                suit = KD_SUIT_CANNONS;
            else if (sp) /* a card of neither suit names the suit it sets */
                suit = strcmp(sp + 1, "walls") == 0 ? KD_SUIT_WALLS : KD_SUIT_CANNONS;
            else
                fail_msg("'%s' sets the suit but names none", moves[i]);
        }
    }
    const uint32_t suit_mask = suit == KD_SUIT_WALLS     ? KD_WALLS
                               : suit == KD_SUIT_CANNONS ? KD_CANNONS
                                                         : 0;
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
                const bool may =
                    !(bit & suit_mask) || i <= setter || ((1u << cards[i]) & suit_mask);
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
    snprintf(text, sizeof text,
             "kd1 players=%d dealer=0 hand=%d leader=1 suit=- trick=- castle=%s "
             "score=%s voids=%s hands=",
             n, castles ? 2 : 1,
             castles  ? castles
             : n == 3 ? "3,3,3"
             : n == 4 ? "3,3,3,3"
                      : "3,3,3,3,3",
             n == 3   ? (castles ? "3,3,3" : "0,0,0")
             : n == 4 ? (castles ? "3,3,3,3" : "0,0,0,0")
                      : (castles ? "3,3,3,3,3" : "0,0,0,0,0"),
             n == 3   ? "-,-,-"
             : n == 4 ? "-,-,-,-"
                      : "-,-,-,-,-");
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
    for (int i = 0; i < n - 1; i++)
        rp_test_play(G, st, moves[i]);
}

/* play_trick_but_last, then the last move: the whole trick. */
static void play_trick(rp_state *st, int n, const char *castles, const char *const *moves)
{
    play_trick_but_last(st, n, castles, moves);
    rp_test_play(G, st, moves[n - 1]);
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
/* The cards (docs/rules/king-of-danger.md, "The cards"): "Walls 1 to 7, Cannons 1 to 7 and
 * Wizards 1 to 8", written walls-1..walls-7 and so on; the Kings carry no number. Each card's
 * rank, which decides tricks (KD-6) and points, is the number the rulebook prints on it: a
 * rank table moved by one (make mutants) would let two Cannons tie. */
static void test_cards_carry_the_numbers_the_rulebook_prints(void **unused)
{
    (void)unused;
    static const struct {
        const char *suit;
        int count;
    } suits[] = {{"walls", 7}, {"cannons", 7}, {"wizard", 8}};
    int numbered = 0;
    for (int c = 0; c < KD_CARDS; c++) {
        const char *name = kd_long_names[c];
        if (strncmp(name, "king-of-", 8) == 0) {
            assert_int_equal(kd_card_rank[c], 0);
            continue;
        }
        const char *dash = strrchr(name, '-');
        assert_non_null(dash);
        bool known = false;
        for (size_t s = 0; s < sizeof suits / sizeof suits[0]; s++)
            if (strncmp(name, suits[s].suit, (size_t)(dash - name)) == 0 &&
                strlen(suits[s].suit) == (size_t)(dash - name)) {
                const int n = atoi(dash + 1);
                assert_true(n >= 1 && n <= suits[s].count);
                known = true;
            }
        assert_true(known);
        assert_int_equal(kd_card_rank[c], atoi(dash + 1));
        numbered++;
    }
    assert_int_equal(numbered, 7 + 7 + 8);
}

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
    /* and says which seats there are: with 3 players, 0 to 2 */
    assert_non_null(strstr(err.msg, "seats are 0..2"));
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
    "cannons-7+wizard-8 aside=- played=- last=- rng=0000000000000001.0000000000000003";

/* Like TWO, but Blue's only Walls cards are face up: hand kd c1 c2 z1 z2, piles w3/c3 w1/w2
 * kw/w4 c4/z3; Red as in TWO. */
static const char *const TWO_WALLS_FACE_UP =
    "kd1 players=2 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3 score=0,0 voids=-,- "
    "hands=king-of-danger,cannons-1,cannons-2,wizard-1,wizard-2/king-of-cannons,walls-5,"
    "cannons-5,wizard-4,wizard-5 table=walls-3+cannons-3,walls-1+walls-2,king-of-walls+walls-4,"
    "cannons-4+wizard-3/walls-6+cannons-6,wizard-6+wizard-7,king-of-wizards+walls-7,"
    "cannons-7+wizard-8 aside=- played=- last=- rng=0000000000000001.0000000000000003";

/* KD-3: "A player may play from hand or any of their face-up table cards; when a face-up card
 * is played the face-down card under it is turned face up at once." */
static void test_kd3_face_up_card_is_played_and_uncovers_the_one_under(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    assert_true(rp_test_is_legal(G, &st, "walls-6"));    /* face-up */
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
    rp_test_load(G, &st, TWO_WALLS_FACE_UP);
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

/* Like FOUR, but Green (seat 2) holds no Walls card: seat 0 kd w1 w2 w3 c1 z1; seat 1 kw w4 w5
 * c2 c3 z2; seat 2 kc c4 c5 c6 z3 z4; seat 3 kz w6 w7 c7 z5 z6; aside z7 z8. */
static const char *const GREEN_NO_WALLS =
    "kd1 players=4 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,3,3,3 score=0,0,0,0 "
    "voids=-,-,-,- hands=king-of-danger,walls-1,walls-2,walls-3,cannons-1,wizard-1/"
    "king-of-walls,walls-4,walls-5,cannons-2,cannons-3,wizard-2/king-of-cannons,cannons-4,"
    "cannons-5,cannons-6,wizard-3,wizard-4/king-of-wizards,walls-6,walls-7,cannons-7,wizard-5,"
    "wizard-6 aside=wizard-7,wizard-8 played=- last=- rng=0000000000000001.0000000000000003";

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
    rp_test_load(G, &st, GREEN_NO_WALLS);
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
static void last_trick_load(rp_state *st, const char *castle, const char *score)
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
}

static void last_trick_state(rp_state *st, const char *castle, const char *score)
{
    last_trick_load(st, castle, score);
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
                 "wizard-6 last=0:1:cannons:cannons-1,cannons-7,cannons-2,cannons-3 "
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

/* A view as text without its "game" field, which names the game: king-of-danger is also a
 * card's name, so the rest is the text in which no hidden card may be named. */
static char *cards_view_text(const rp_state *st, int viewer)
{
    cJSON *v = G->json->view(st, viewer);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "game")),
                        "king-of-danger");
    cJSON_DeleteItemFromObjectCaseSensitive(v, "game");
    char *text = cJSON_PrintUnformatted(v);
    cJSON_Delete(v);
    return text;
}

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
                char *text = cards_view_text(&st, p);
                char *v = text;
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
    rp_test_load(G, &st, GREEN_NO_WALLS);
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
            assert_int_equal(__builtin_popcount(s->hand[p]), __builtin_popcount(K(&st)->hand[p]));
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
    static const char *const bad[] = {"walls-8",         "wizard-9 walls",       "walls-3 walls",
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
            fail_msg("message '%s' for %s does not mention %s", err.msg, edits[i].to, edits[i].why);
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

/* The evaluation is the fitted one (docs/ai.md, "Strength changes tried"), which values the
 * Kings a seat may play: handing the King of Danger from one hand to another, for one of its
 * low cards, moves value from the first seat to the second, where the hand-set evaluation
 * (scores and castles only) saw no difference. */
static void test_fitted_evaluate_values_kings(void **unused)
{
    (void)unused;
    const uint32_t king = 1u << KD_KING_DANGER;
    int tried = 0;
    for (int seed = 1; seed <= 40; seed++) {
        const int players = 2 + seed % 4;
        rp_state st;
        char opts[64];
        snprintf(opts, sizeof opts, "players=%d seed=%d", players, seed);
        rp_test_init(G, &st, opts);
        kd_state *s = K(&st);
        int holder = -1;
        for (int p = 0; p < players; p++)
            if (s->hand[p] & king)
                holder = p;
        if (holder < 0)
            continue; /* the King of Danger was set aside this deal */
        const int other = (holder + 1) % players;
        uint32_t low = 0;
        for (uint32_t m = s->hand[other] & ~KD_KINGS; m && !low; m &= m - 1)
            if (kd_card_rank[kd_lowest(m)] < 6)
                low = 1u << kd_lowest(m);
        if (!low)
            continue;
        const double holder_before = G->evaluate(&st, holder);
        const double other_before = G->evaluate(&st, other);
        s->hand[holder] ^= king | low;
        s->hand[other] ^= king | low;
        assert_true(G->evaluate(&st, holder) < holder_before);
        assert_true(G->evaluate(&st, other) > other_before);
        tried++;
    }
    assert_true(tried >= 15);
}

/* ---- the kd1 notation: one spelling per state (issue 18) ---- */

/* Replace the first `from` in text by `to` into out. */
static void edit(const char *text, const char *from, const char *to, char *out, size_t size)
{
    const char *at = strstr(text, from);
    if (!at)
        fail_msg("'%s' is not in the notation", from);
    snprintf(out, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* Every spelling but the canonical one is refused with a reason, leaving the state alone:
 * a leading '+' or zeros, another case, a set in another order, short codes, extra spaces,
 * another version of the format or the old untagged one, another rng separator. */
static void test_notation_only_the_canonical_spelling_loads(void **unused)
{
    (void)unused;
    static const struct {
        const char *from, *to;
    } edits[] = {
        {"castle=3,3,3,3", "castle=03,3,3,3"},
        {"castle=3,3,3,3", "castle=+3,3,3,3"},
        {"dealer=0", "dealer=00"},
        {"walls-1,walls-2", "walls-2,walls-1"},
        {"aside=wizard-7,wizard-8", "aside=wizard-8,wizard-7"},
        {"king-of-danger,walls-1", "King-of-Danger,walls-1"},
        {"king-of-danger,walls-1", "kd,walls-1"},
        {"suit=-", "suit=Walls"},
        {" hand=1", "  hand=1"},
        {" rng=", "\trng="},
        {"kd1 ", "kd2 "},
        {"kd1 ", ""},
        {"0000000000000001.", "0000000000000001:"},
        {"0000000000000003", "0000000000000003 "},
    };
    rp_state st, before;
    rp_test_load(G, &st, FOUR);
    rp_state_copy(G, &before, &st);
    for (size_t i = 0; i < sizeof edits / sizeof *edits; i++) {
        char text[RP_STATE_TEXT];
        edit(FOUR, edits[i].from, edits[i].to, text, sizeof text);
        rp_error err = {{0}};
        if (G->state_from_text(&st, text, &err) >= 0)
            fail_msg("accepted the non-canonical '%s'", text);
        assert_true(strlen(err.msg) > 0);
        assert_memory_equal(&st, &before, G->state_size);
    }
    /* the same state in another order is named as not canonical */
    char text[RP_STATE_TEXT];
    edit(FOUR, "walls-1,walls-2", "walls-2,walls-1", text, sizeof text);
    rp_error err = {{0}};
    assert_true(G->state_from_text(&st, text, &err) < 0);
    assert_non_null(strstr(err.msg, "canonical"));
    edit(FOUR, "kd1 ", "kd2 ", text, sizeof text);
    assert_true(G->state_from_text(&st, text, &err) < 0);
    assert_non_null(strstr(err.msg, "version"));
}

/* state_ok is the validator loading uses: a state that breaks one invariant directly in the
 * struct (as a rule bug would) is refused with a reason. */
static void test_state_ok_finds_broken_invariants(void **unused)
{
    (void)unused;
    rp_state st;
    rp_error err = {{0}};
    rp_test_load(G, &st, TWO);
    assert_int_equal(G->state_ok(&st, &err), RP_OK);
    kd_state good = *K(&st);
    struct {
        const char *why;
        kd_state s;
    } broken[9];
    int n = 0;
    for (int i = 0; i < 9; i++)
        broken[i].s = good;
    broken[n].why = "castle";
    broken[n++].s.castle[1] = 9;  /* KD-1 */
    broken[n].why = "two places"; /* king-of-cannons in both hands, king-of-danger nowhere */
    broken[n++].s.hand[0] ^= 1u << KD_KING_CANNONS | 1u << KD_KING_DANGER;
    broken[n].why = "table";
    broken[n++].s.up[0] &= ~(1u << card_id("walls-3", 7)); /* the mask lost a pile's card */
    broken[n].why = "trick";
    broken[n++].s.trick_mask = 1u << KD_KING_DANGER; /* no card was played */
    broken[n].why = "over";
    broken[n++].s.over = 1;
    broken[n].why = "odd";
    broken[n++].s.rng.inc = 2;
    broken[n].why = "seat 3";
    broken[n++].s.score[3] = 1; /* a seat that does not play */
    broken[n].why = "to act";
    broken[n++].s.to_act ^= 1; /* not leader + trick length */
    for (int i = 0; i < n; i++) {
        err.msg[0] = '\0';
        if (G->state_ok(&broken[i].s, &err) >= 0)
            fail_msg("state_ok accepted a state with a broken %s", broken[i].why);
        if (!strstr(err.msg, broken[i].why))
            fail_msg("message '%s' does not mention %s", err.msg, broken[i].why);
    }
}

/* ---- options in effect (issue 18, item 4) ---- */

/* config_of reports the players and the first dealer the state is played under: from init,
 * they are the options given, also hands later (the deal passes left, KD-2). */
static void test_config_of_reports_players_and_first_dealer(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_init(G, &st, "players=3 dealer=2 seed=6");
    rp_rng rng;
    rp_rng_seed(&rng, 6, 6);
    while (K(&st)->hand_number < 4 && !K(&st)->over)
        rp_test_random_step(G, &st, &rng);
    assert_int_equal(K(&st)->dealer, (2 + K(&st)->hand_number - 1) % 3);
    rp_config base, cfg;
    rp_config_default(G, &base);
    rp_config_of(G, &st, &base, &cfg);
    assert_int_equal(cfg.players, 3);
    assert_int_equal(rp_config_int(G, &cfg, "dealer"), 2);
}

/* The issue's case: options players=5 dealer=4 and a two-player position loaded in their
 * place. config_of reports what the position implies — 2 players, and the first dealer its
 * dealer and hand number imply — and a game set up from those options then takes the position
 * and replays to the same state. */
static void test_config_of_a_loaded_position_replays(void **unused)
{
    (void)unused;
    rp_config base, cfg;
    rp_error err = {{0}};
    rp_config_default(G, &base);
    assert_int_equal(rp_config_set(G, &base, "players=5", &err), RP_OK);
    assert_int_equal(rp_config_set(G, &base, "dealer=4", &err), RP_OK);
    rp_state st;
    char text[RP_STATE_TEXT];
    /* hand 4, dealt by Blue (seat 0): hands 1..4 were dealt by Red, Blue, Red, Blue; hand 3's
     * last trick is on show */
    char step[RP_STATE_TEXT];
    edit(TWO, "hand=1 leader=1", "hand=4 leader=1", step, sizeof step);
    edit(step, "score=0,0", "score=12,13", text, sizeof text);
    edit(text, "last=-", "last=0:1:walls:walls-1,walls-2", step, sizeof step);
    snprintf(text, sizeof text, "%s", step);
    rp_test_load(G, &st, text);
    rp_config_of(G, &st, &base, &cfg);
    assert_int_equal(cfg.players, 2);
    assert_int_equal(rp_config_int(G, &cfg, "dealer"), 1);
    char options[256];
    assert_true(rp_config_to_text(G, &cfg, options, sizeof options) > 0);
    assert_non_null(strstr(options, "players=2"));
    assert_non_null(strstr(options, "dealer=1"));
    /* the record's replay: set up with the reported options, then load the position */
    rp_state replay;
    assert_int_equal(G->init(&replay, &cfg, &err), RP_OK);
    rp_test_load(G, &replay, text);
    assert_memory_equal(&replay, &st, G->state_size);
    /* a fresh game's first hand: the dealer it shows is the first dealer */
    rp_test_load(G, &st, FOUR);
    rp_config_of(G, &st, &base, &cfg);
    assert_int_equal(cfg.players, 4);
    assert_int_equal(rp_config_int(G, &cfg, "dealer"), 0);
}

/* ---- turns, views and actions as data ---- */

/* The rulebook plays a hand "in rounds (called tricks)": turn_number counts tricks over the
 * game — 6 a hand with 4 players (KD-2), 13 with 2 (KD-P4), Kings-only tricks included. */
static void test_turn_number_counts_tricks(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    assert_int_equal(G->turn_number(&st), 1);
    play_all(&st, "king-of-walls,king-of-cannons,king-of-wizards");
    assert_int_equal(G->turn_number(&st), 1);
    rp_test_play(G, &st, "king-of-danger"); /* set aside (KD-7): still a trick */
    assert_int_equal(G->turn_number(&st), 2);
    last_trick_load(&st, "1,2,3,4", "10,10,10,10"); /* hand 5's sixth trick */
    assert_int_equal(G->turn_number(&st), 4 * 6 + 6);
    play_all(&st, "walls-2,walls-3,walls-4,walls-1");
    assert_int_equal(G->turn_number(&st), 5 * 6 + 1);
    last_trick_state(&st, "5,5,5,6", "20,20,20,24"); /* the game ends with hand 5 */
    assert_true(K(&st)->over);
    assert_int_equal(G->turn_number(&st), 5 * 6);
    rp_test_load(G, &st, TWO);
    play_all(&st, "walls-5,walls-1");
    assert_int_equal(G->turn_number(&st), 2);
}

/* KD-10 for the spectator: the public part only — no hand, no seat, no hidden card — and the
 * same screen and view for two states that differ only in hidden cards. */
static void test_spectator_view_is_public(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    rp_test_play(G, &st, "walls-3");
    cJSON *v = G->json->view(&st, RP_SPECTATOR);
    assert_null(cJSON_GetObjectItemCaseSensitive(v, "hand"));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(v, "seat")));
    char *text = cards_view_text(&st, RP_SPECTATOR);
    uint32_t hidden = K(&st)->hand[0] | K(&st)->hand[1] | K(&st)->hand[2] | K(&st)->hand[3];
    for (uint32_t m = hidden; m; m &= m - 1) {
        char quoted[40];
        snprintf(quoted, sizeof quoted, "\"%s\"", NAMES[__builtin_ctz(m)]);
        if (strstr(text, quoted))
            fail_msg("the spectator sees %s: %s", quoted, text);
    }
    assert_non_null(strstr(text, "\"trick\":[{\"seat\":1,\"card\":\"walls-3\"}]"));
    assert_non_null(strstr(text, "\"hand_sizes\":[6,5,6,6]"));
    free(text);
    cJSON_Delete(v);
    char *screen = render_text(&st, RP_SPECTATOR, false);
    assert_null(strstr(screen, "Your hand"));
    assert_null(strstr(screen, "(you)"));
    assert_non_null(strstr(screen, "Green to play."));
    for (uint32_t m = hidden; m; m &= m - 1)
        assert_null(strstr(screen, NAMES[__builtin_ctz(m)]));
    free(screen);
}

/* KD-3, KD-P3 as plain data: each seat's table is a row of face-up names (null where a pile is
 * empty) and a row of booleans for the face-down cards, never named, not even to their owner. */
static void test_two_player_table_rows_are_arrays(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    play_all(&st, "walls-6,walls-3,cannons-6"); /* Red leads again, uncovering its pile 0 */
    char *v = rp_view_text(G, &st, 1, false);
    assert_non_null(strstr(v, "\"table\":[{\"face_up\":[\"cannons-3\",\"wizard-1\","
                              "\"king-of-walls\",\"cannons-4\"],\"face_down\":[false,true,true,"
                              "true]},{\"face_up\":[null,\"wizard-6\",\"king-of-wizards\","
                              "\"cannons-7\"],\"face_down\":[false,true,true,true]}]"));
    for (int seat = 0; seat < 2; seat++)
        for (int i = 1; i < KD_PILES; i++) {
            char quoted[40];
            snprintf(quoted, sizeof quoted, "\"%s\"", NAMES[K(&st)->pile_under[seat][i]]);
            assert_null(strstr(v, quoted));
        }
    free(v);
}

/* Every legal action as data: a card from the hand or a table pile, and a Wizard leading with
 * its call (KD-P1), so a client builds clicks from the list without notation. */
static void test_actions_as_data(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, TWO);
    cJSON *legal = rp_legal_cjson(G, &st);
    char *text = cJSON_PrintUnformatted(legal);
    assert_non_null(strstr(text, "{\"id\":54,\"text\":\"wizard-5 walls\",\"kind\":\"play\","
                                 "\"card\":\"wizard-5\",\"from\":\"hand\",\"call\":\"walls\"}"));
    assert_non_null(strstr(text, "{\"id\":9,\"text\":\"walls-6\",\"kind\":\"play\","
                                 "\"card\":\"walls-6\",\"from\":\"table\",\"pile\":0}"));
    assert_non_null(strstr(text, "\"text\":\"king-of-wizards\",\"kind\":\"play\","
                                 "\"card\":\"king-of-wizards\",\"from\":\"table\",\"pile\":2}"));
    assert_non_null(strstr(text, "\"text\":\"cannons-5\",\"kind\":\"play\","
                                 "\"card\":\"cannons-5\",\"from\":\"hand\"}"));
    /* 5 hand cards (two Wizards, two calls each) and 4 face-up cards (one Wizard) */
    assert_int_equal(cJSON_GetArraySize(legal), 5 + 2 + 4 + 1);
    free(text);
    cJSON_Delete(legal);
}

/* ---- events (what each viewer is told) ---- */

/* The events of `move` at st for viewer. */
static cJSON *events_of(const rp_state *st, const char *move, int viewer)
{
    rp_action a;
    rp_error err = {{0}};
    if (rp_parse_move(G, st, move, &a, &err) < 0)
        fail_msg("move '%s': %s", move, err.msg);
    cJSON *events = rp_events_cjson(G, st, a, viewer, &err);
    if (!events)
        fail_msg("events of '%s': %s", move, err.msg);
    return events;
}

/* The events as lines "kind seat: text" (seat - when absent). */
static void event_lines(const cJSON *events, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    const cJSON *e;
    cJSON_ArrayForEach (e, events) {
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(e, "seat");
        char who[8] = "-";
        if (seat)
            snprintf(who, sizeof who, "%d", seat->valueint);
        len += (size_t)snprintf(buf + len, size - len, "%s %s: %s\n",
                                cJSON_GetObjectItemCaseSensitive(e, "kind")->valuestring, who,
                                cJSON_GetObjectItemCaseSensitive(e, "text")->valuestring);
    }
}

/* The events of `move` told to viewer must be exactly `want` (lines as event_lines). */
static void expect_events(const rp_state *st, const char *move, int viewer, const char *want)
{
    char got[4096];
    cJSON *events = events_of(st, move, viewer);
    event_lines(events, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("events of '%s' for viewer %d:\n%s\nwanted:\n%s", move, viewer, got, want);
    cJSON_Delete(events);
}

/* ... for every seat and the spectator alike (nothing private in them). */
static void expect_events_for_all(const rp_state *st, const char *move, const char *want)
{
    for (int v = RP_SPECTATOR; v < K((rp_state *)st)->players; v++)
        if (v != RP_TERMINAL)
            expect_events(st, move, v, want);
}

/* The event at index i, printed, must contain `fragment` (its machine-readable parts). */
static void expect_event_data(const rp_state *st, const char *move, int viewer, int i,
                              const char *fragment)
{
    cJSON *events = events_of(st, move, viewer);
    char *e = cJSON_PrintUnformatted(cJSON_GetArrayItem(events, i));
    if (!e || !strstr(e, fragment))
        fail_msg("event %d of '%s' is %s, without %s", i, move, e ? e : "missing", fragment);
    free(e);
    cJSON_Delete(events);
}

/* KD-4: a lead sets the trick suit; a card from a hand is a reveal; a Wizard's call. */
static void test_events_lead_suit_and_call(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    expect_events_for_all(&st, "walls-3",
                          "play 1: Red leads walls-3.\n"
                          "trick-suit 1: walls-3 makes this a Walls trick (KD-4).\n"
                          "turn 2: Green to play.\n");
    expect_event_data(&st, "walls-3", 0, 0,
                      "\"cards\":[\"walls-3\"],\"from\":\"hand\",\"reveal\":true}");
    expect_event_data(&st, "walls-3", RP_SPECTATOR, 1, "\"suit\":\"walls\"");
    expect_events_for_all(&st, "wizard-2 cannons",
                          "play 1: Red leads wizard-2.\n"
                          "call 1: Red's wizard-2 names Cannons: this is a Cannons trick (KD-4).\n"
                          "turn 2: Green to play.\n");
    expect_event_data(&st, "wizard-2 cannons", 3, 1,
                      "\"cards\":[\"wizard-2\"],\"suit\":\"cannons\"}");
    /* Kings first: no suit yet, so no suit event */
    expect_events_for_all(&st, "king-of-walls",
                          "play 1: Red leads king-of-walls.\nturn 2: Green to play.\n");
}

/* KD-5, KD-P2: not following tells everyone of a void, once per suit and hand. */
static void test_events_void_once(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, GREEN_NO_WALLS);
    rp_test_play(G, &st, "walls-4");
    expect_events_for_all(&st, "king-of-cannons",
                          "play 2: Green plays king-of-cannons.\n"
                          "void 2: Green does not follow Walls, so Green holds no Walls card "
                          "in hand for the rest of this hand (KD-P2).\nturn 3: Gold to play.\n");
    expect_event_data(&st, "king-of-cannons", RP_SPECTATOR, 1, "\"suit\":\"walls\"");
    play_all(&st, "king-of-cannons,walls-7,walls-1"); /* Gold wins and leads */
    play_all(&st, "walls-6,walls-2,walls-5");
    expect_events_for_all(&st, "cannons-4",
                          "play 2: Green plays cannons-4.\n"
                          "trick-won 3: Gold's walls-6 wins the Walls trick: the highest Walls "
                          "card or Wizard (KD-6).\n"
                          "castle 3: Gold's castle rises from 5 to 7 (+2 for winning the Walls "
                          "trick, KD-8).\n"
                          "castle 0: Blue's castle rises from 4 to 5 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "castle 1: Red's castle rises from 4 to 5 (+1 for playing a Walls "
                          "card, KD-8).\nturn 3: Gold leads the next trick.\n");
}

/* KD-6 (3) and KD-8: the highest number wins; the winner's castle +2, each other Walls player
 * +1, in the order they played. */
static void test_events_trick_won_by_the_highest(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    play_all(&st, "walls-3,walls-5,walls-7");
    expect_events_for_all(&st, "walls-1",
                          "play 0: Blue plays walls-1.\n"
                          "trick-won 3: Gold's walls-7 wins the Walls trick: the highest Walls "
                          "card or Wizard (KD-6).\n"
                          "castle 3: Gold's castle rises from 3 to 5 (+2 for winning the Walls "
                          "trick, KD-8).\n"
                          "castle 1: Red's castle rises from 3 to 4 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "castle 2: Green's castle rises from 3 to 4 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "castle 0: Blue's castle rises from 3 to 4 (+1 for playing a Walls "
                          "card, KD-8).\nturn 3: Gold leads the next trick.\n");
    expect_event_data(&st, "walls-1", 2, 1,
                      "\"cards\":[\"walls-3\",\"walls-5\",\"walls-7\",\"walls-1\"],"
                      "\"card\":\"walls-7\",\"suit\":\"walls\",\"case\":\"highest\",\"leader\":1}");
    expect_event_data(&st, "walls-1", 2, 2, "\"from\":3,\"to\":5,\"change\":2}");
}

/* KD-6 (1), (2), the tie rule of (3), and KD-7, each told with its reason. */
static void test_events_winner_cases(void **unused)
{
    (void)unused;
    rp_state st;
    const char *danger[] = {"walls-7", "king-of-walls", "king-of-danger", "wizard-8"};
    play_trick_but_last(&st, 4, NULL, danger);
    expect_events_for_all(&st, "wizard-8",
                          "play 0: Blue plays wizard-8.\n"
                          "void 0: Blue does not follow Walls, so Blue holds no Walls card in "
                          "hand for the rest of this hand (KD-P2).\n"
                          "trick-won 3: Gold's king-of-danger wins the Walls trick: the King "
                          "of Danger beats every other card (KD-6).\n"
                          "castle 3: Gold's castle rises from 3 to 5 (+2 for winning the Walls "
                          "trick, KD-8).\n"
                          "castle 1: Red's castle rises from 3 to 4 (+1 for playing a Walls "
                          "card, KD-8).\nturn 3: Gold leads the next trick.\n");
    expect_event_data(&st, "wizard-8", 1, 2, "\"case\":\"king-of-danger\"");
    const char *king[] = {"walls-1", "king-of-walls", "walls-7", "wizard-8"};
    play_trick_but_last(&st, 4, NULL, king);
    expect_event_data(&st, "wizard-8", RP_SPECTATOR, 2,
                      "\"text\":\"Green's king-of-walls wins the Walls trick: a Walls card is "
                      "in the trick, and it is the last King played whose condition holds "
                      "(KD-6).\",\"cards\":[\"walls-1\",\"king-of-walls\",\"walls-7\","
                      "\"wizard-8\"],\"card\":\"king-of-walls\",\"suit\":\"walls\","
                      "\"case\":\"king\"");
    const char *tie[] = {"wizard-6 cannons", "cannons-6", "cannons-1", "cannons-2"};
    play_trick_but_last(&st, 4, NULL, tie);
    expect_events_for_all(&st, "cannons-2",
                          "play 0: Blue plays cannons-2.\n"
                          "trick-won 2: Green's cannons-6 wins the Cannons trick: it ties "
                          "wizard-6, and the Cannons card wins the tie (KD-6).\n"
                          "castle 0: Blue's castle falls from 3 to 2 (-1 for losing the "
                          "Cannons trick, KD-8).\n"
                          "castle 1: Red's castle falls from 3 to 2 (-1 for losing the "
                          "Cannons trick, KD-8).\n"
                          "castle 3: Gold's castle falls from 3 to 2 (-1 for losing the "
                          "Cannons trick, KD-8).\nturn 2: Green leads the next trick.\n");
    expect_event_data(&st, "cannons-2", 0, 1, "\"case\":\"tie\"");
    const char *kings[] = {"king-of-walls", "king-of-cannons", "king-of-danger", "king-of-wizards"};
    play_trick_but_last(&st, 4, NULL, kings);
    expect_events_for_all(&st, "king-of-wizards",
                          "play 0: Blue plays king-of-wizards.\n"
                          "trick-set-aside 1: Only Kings were played, so the trick is set "
                          "aside: no castle changes, and Red leads again (KD-7).\n"
                          "turn 1: Red leads the next trick.\n");
    expect_event_data(&st, "king-of-wizards", 2, 1,
                      "\"cards\":[\"king-of-walls\",\"king-of-cannons\",\"king-of-danger\","
                      "\"king-of-wizards\"]");
}

/* KD-1, KD-8: a castle that cannot move further says so. */
static void test_events_castles_at_the_limits(void **unused)
{
    (void)unused;
    rp_state st;
    const char *walls[] = {"walls-7", "walls-1", "walls-2", "walls-3"};
    play_trick_but_last(&st, 4, "1,8,8,1", walls);
    expect_events(&st, "walls-3", RP_SPECTATOR,
                  "play 0: Blue plays walls-3.\n"
                  "trick-won 1: Red's walls-7 wins the Walls trick: the highest Walls card or "
                  "Wizard (KD-6).\n"
                  "castle 1: Red's castle stays at 8, the highest value (+2 for winning the "
                  "Walls trick, KD-8).\n"
                  "castle 2: Green's castle stays at 8, the highest value (+1 for playing a "
                  "Walls card, KD-8).\n"
                  "castle 3: Gold's castle rises from 1 to 2 (+1 for playing a Walls card, KD-8).\n"
                  "castle 0: Blue's castle rises from 1 to 2 (+1 for playing a Walls card, KD-8).\n"
                  "turn 1: Red leads the next trick.\n");
    const char *cannons[] = {"cannons-7", "cannons-1", "cannons-2", "cannons-3"};
    play_trick_but_last(&st, 4, "1,1,8,8", cannons);
    expect_events(&st, "cannons-3", 0,
                  "play 0: Blue plays cannons-3.\n"
                  "trick-won 1: Red's cannons-7 wins the Cannons trick: the highest Cannons "
                  "card or Wizard (KD-6).\n"
                  "castle 0: Blue's castle stays at 1, the lowest value (-1 for losing the "
                  "Cannons trick, KD-8).\n"
                  "castle 2: Green's castle falls from 8 to 7 (-1 for losing the Cannons "
                  "trick, KD-8).\n"
                  "castle 3: Gold's castle falls from 8 to 7 (-1 for losing the Cannons trick, "
                  "KD-8).\nturn 1: Red leads the next trick.\n");
}

/* The deal event as the referee's state says it must read for viewer. */
static void deal_text(const kd_state *s, int viewer, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size,
                                  "deal 1: Hand 6: Red deals 6 cards to each player "
                                  "and sets aside face up: ");
    for (uint32_t m = s->aside; m; m &= m - 1)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", NAMES[__builtin_ctz(m)],
                                m & (m - 1) ? ", " : "");
    len += (size_t)snprintf(buf + len, size - len, " (KD-2)");
    if (viewer >= 0) {
        len += (size_t)snprintf(buf + len, size - len, ". Your hand: ");
        for (uint32_t m = s->hand[viewer]; m; m &= m - 1)
            len += (size_t)snprintf(buf + len, size - len, "%s%s", NAMES[__builtin_ctz(m)],
                                    m & (m - 1) ? ", " : "");
    }
    snprintf(buf + len, size - len, ".\n");
}

/* KD-9 and KD-2: the hand's end adds castles to scores; the new deal tells each seat its own
 * hand, everyone the cards set aside, and never a card of another hand. */
static void test_events_hand_over_and_deal(void **unused)
{
    (void)unused;
    rp_state st, after;
    last_trick_load(&st, "1,2,3,4", "10,10,10,10");
    play_all(&st, "walls-2,walls-3,walls-4");
    rp_state_copy(G, &after, &st);
    rp_test_play(G, &after, "walls-1");
    const kd_state *s = K(&after);
    for (int v = RP_SPECTATOR; v < 4; v++) {
        if (v == RP_TERMINAL)
            continue;
        char want[2048], deal[1024];
        deal_text(s, v, deal, sizeof deal);
        snprintf(want, sizeof want,
                 "play 0: Blue plays walls-1.\n"
                 "trick-won 3: Gold's walls-4 wins the Walls trick: the highest Walls card or "
                 "Wizard (KD-6).\n"
                 "castle 3: Gold's castle rises from 4 to 6 (+2 for winning the Walls trick, "
                 "KD-8).\ncastle 1: Red's castle rises from 2 to 3 (+1 for playing a Walls card, "
                 "KD-8).\ncastle 2: Green's castle rises from 3 to 4 (+1 for playing a Walls card, "
                 "KD-8).\ncastle 0: Blue's castle rises from 1 to 2 (+1 for playing a Walls card, "
                 "KD-8).\n"
                 "hand-over -: Hand 5 is over: Blue adds 2 to reach 12, Red adds 3 to reach "
                 "13, Green adds 4 to reach 14, Gold adds 6 to reach 16 (KD-9).\n%s"
                 "turn 2: Green leads the next trick.\n",
                 deal);
        expect_events(&st, "walls-1", v, want);
        /* the deal names the viewer's own cards as data, and no one else's */
        cJSON *events = events_of(&st, "walls-1", v);
        const cJSON *e = cJSON_GetArrayItem(events, 7);
        const cJSON *cards = cJSON_GetObjectItemCaseSensitive(e, "cards");
        assert_true(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "reveal")));
        if (v < 0) {
            assert_null(cards);
        } else {
            assert_int_equal(cJSON_GetArraySize(cards), 6);
            const cJSON *c;
            cJSON_ArrayForEach (c, cards)
                assert_true(s->hand[v] & (1u << card_id(c->valuestring, strlen(c->valuestring))));
        }
        /* the last trick's cards, walls-1..4, are dealt again: they may be named as played */
        const uint32_t shown = mask_of("walls-1,walls-2,walls-3,walls-4");
        char *text = cJSON_PrintUnformatted(events);
        for (int q = 0; q < 4; q++)
            for (uint32_t m = q == v ? 0 : s->hand[q] & ~shown; m; m &= m - 1)
                if (strstr(text, NAMES[__builtin_ctz(m)]))
                    fail_msg("viewer %d is told of %s, in seat %d's hand: %s", v,
                             NAMES[__builtin_ctz(m)], q, text);
        free(text);
        cJSON_Delete(events);
        expect_event_data(&st, "walls-1", v, 6,
                          "\"hand\":5,\"castle\":[2,3,4,6],\"score\":[12,13,14,16]}");
        expect_event_data(&st, "walls-1", v, 7, "\"hand_sizes\":[6,6,6,6]");
    }
}

/* KD-9: the end of the game, with the winner and every score. */
static void test_events_game_over(void **unused)
{
    (void)unused;
    rp_state st;
    last_trick_load(&st, "5,5,5,6", "20,20,20,24");
    play_all(&st, "walls-2,walls-3,walls-4");
    expect_events_for_all(&st, "walls-1",
                          "play 0: Blue plays walls-1.\n"
                          "trick-won 3: Gold's walls-4 wins the Walls trick: the highest Walls "
                          "card or Wizard (KD-6).\n"
                          "castle 3: Gold's castle rises from 6 to 8 (+2 for winning the Walls "
                          "trick, KD-8).\n"
                          "castle 1: Red's castle rises from 5 to 6 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "castle 2: Green's castle rises from 5 to 6 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "castle 0: Blue's castle rises from 5 to 6 (+1 for playing a Walls "
                          "card, KD-8).\n"
                          "hand-over -: Hand 5 is over: Blue adds 6 to reach 26, Red adds 6 to "
                          "reach 26, Green adds 6 to reach 26, Gold adds 8 to reach 32 (KD-9).\n"
                          "game-over 3: Gold wins the game with 32 points, the only highest "
                          "score, at 31 or more (KD-9); Blue 26, Red 26, Green 26.\n");
    expect_event_data(&st, "walls-1", RP_SPECTATOR, 7, "\"winner\":3,\"score\":[26,26,26,32]}");
}

/* KD-9, KD-14: 31 reached with the highest score shared: another, ordinary hand. */
static void test_events_tie_plays_another_hand(void **unused)
{
    (void)unused;
    rp_state st, after;
    last_trick_load(&st, "5,5,5,6", "25,20,20,23");
    play_all(&st, "walls-2,walls-3,walls-4");
    rp_state_copy(G, &after, &st);
    rp_test_play(G, &after, "walls-1");
    char deal[1024], want[4096];
    deal_text(K(&after), RP_SPECTATOR, deal, sizeof deal);
    snprintf(want, sizeof want,
             "play 0: Blue plays walls-1.\n"
             "trick-won 3: Gold's walls-4 wins the Walls trick: the highest Walls card or Wizard "
             "(KD-6).\n"
             "castle 3: Gold's castle rises from 6 to 8 (+2 for winning the Walls trick, KD-8).\n"
             "castle 1: Red's castle rises from 5 to 6 (+1 for playing a Walls card, KD-8).\n"
             "castle 2: Green's castle rises from 5 to 6 (+1 for playing a Walls card, KD-8).\n"
             "castle 0: Blue's castle rises from 5 to 6 (+1 for playing a Walls card, KD-8).\n"
             "hand-over -: Hand 5 is over: Blue adds 6 to reach 31, Red adds 6 to reach 26, "
             "Green adds 6 to reach 26, Gold adds 8 to reach 31 (KD-9).\n"
             "tie -: Blue and Gold share the highest score, 31, so another hand is played "
             "(KD-9, KD-14).\n%sturn 2: Green leads the next trick.\n",
             deal);
    expect_events(&st, "walls-1", RP_SPECTATOR, want);
    expect_event_data(&st, "walls-1", 1, 7, "\"seats\":[0,3],\"score\":31}");
}

/* KD-3, KD-P3: a face-up table card played uncovers the card under it, which every seat —
 * its owner too — learns only now. */
static void test_events_two_player_flip(void **unused)
{
    (void)unused;
    rp_state st, after;
    rp_test_load(G, &st, TWO);
    expect_events_for_all(&st, "walls-6",
                          "play 1: Red leads walls-6 from the table.\n"
                          "flip 1: Under walls-6, cannons-6 turns face up on Red's table (KD-3).\n"
                          "trick-suit 1: walls-6 makes this a Walls trick (KD-4).\n"
                          "turn 0: Blue to play.\n");
    expect_event_data(&st, "walls-6", 1, 0,
                      "\"cards\":[\"walls-6\"],\"from\":\"table\",\"pile\":0}");
    expect_event_data(&st, "walls-6", 1, 1,
                      "\"cards\":[\"cannons-6\"],\"pile\":0,\"reveal\":true}");
    char *before = rp_view_text(G, &st, 1, false);
    assert_null(strstr(before, "cannons-6"));
    free(before);
    rp_state_copy(G, &after, &st);
    rp_test_play(G, &after, "walls-6");
    char *v = rp_view_text(G, &after, 1, false);
    assert_non_null(strstr(v, "\"cannons-6\""));
    free(v);
    /* a face-up card with nothing under it: no flip */
    rp_test_play(G, &st, "walls-6");
    rp_test_play(G, &st, "walls-3");
    expect_events_for_all(&st, "cannons-6",
                          "play 1: Red leads cannons-6 from the table.\n"
                          "trick-suit 1: cannons-6 makes this a Cannons trick (KD-4).\n"
                          "turn 0: Blue to play.\n");
}

/* KD-3: the two-player deal tells each seat its hand and both face-up rows, in pile order, and
 * names no face-down card to anyone, its owner included (KD-P3). */
static void test_events_two_player_deal(void **unused)
{
    (void)unused;
    rp_state st, after;
    rp_test_load(G, &st,
                 "kd1 players=2 dealer=0 hand=1 leader=1 suit=- trick=- castle=3,4 score=0,0 "
                 "voids=-,- hands=walls-1/walls-2 table=-,-,-,-/-,-,-,- aside=- "
                 "played=king-of-danger,king-of-walls,king-of-cannons,king-of-wizards,walls-3,"
                 "walls-4,walls-5,walls-6,walls-7,cannons-1,cannons-2,cannons-3,cannons-4,"
                 "cannons-5,cannons-6,cannons-7,wizard-1,wizard-2,wizard-3,wizard-4,wizard-5,"
                 "wizard-6,wizard-7,wizard-8 last=0:1:cannons:cannons-1,cannons-7 "
                 "rng=0000000000000001.0000000000000003");
    rp_test_play(G, &st, "walls-2");
    rp_state_copy(G, &after, &st);
    rp_test_play(G, &after, "walls-1");
    const kd_state *s = K(&after);
    for (int v = RP_SPECTATOR; v < 2; v++) {
        if (v == RP_TERMINAL)
            continue;
        char want[2048];
        size_t len = (size_t)snprintf(
            want, sizeof want,
            "play 0: Blue plays walls-1.\n"
            "trick-won 1: Red's walls-2 wins the Walls trick: the highest Walls card or Wizard "
            "(KD-6).\n"
            "castle 1: Red's castle rises from 4 to 5 (+1 for winning the Walls trick, KD-8).\n"
            "hand-over -: Hand 1 is over: Blue adds 3 to reach 3, Red adds 5 to reach 5 (KD-9).\n"
            "deal 1: Hand 2: Red deals each player 4 face-down cards, each topped by a face-up "
            "card, and a hand of 5 (KD-3). Face up");
        for (int p = 0; p < 2; p++) {
            len += (size_t)snprintf(want + len, sizeof want - len,
                                    "%s %s's table: ", p ? "; on" : " on", p ? "Red" : "Blue");
            for (int i = 0; i < KD_PILES; i++)
                len += (size_t)snprintf(want + len, sizeof want - len, "%s%s", i ? ", " : "",
                                        NAMES[s->pile_top[p][i]]);
        }
        if (v >= 0) {
            len += (size_t)snprintf(want + len, sizeof want - len, ". Your hand: ");
            for (uint32_t m = s->hand[v]; m; m &= m - 1)
                len += (size_t)snprintf(want + len, sizeof want - len, "%s%s",
                                        NAMES[__builtin_ctz(m)], m & (m - 1) ? ", " : "");
        }
        snprintf(want + len, sizeof want - len, ".\nturn 0: Blue leads the next trick.\n");
        expect_events(&st, "walls-1", v, want);
        cJSON *events = events_of(&st, "walls-1", v);
        char *text = cJSON_PrintUnformatted(events);
        uint32_t hidden =
            s->down[0] | s->down[1] | (v == 0 ? 0 : s->hand[0]) | (v == 1 ? 0 : s->hand[1]);
        for (uint32_t m = hidden & ~mask_of("walls-1,walls-2"); m; m &= m - 1)
            if (strstr(text, NAMES[__builtin_ctz(m)]))
                fail_msg("viewer %d is told of hidden %s: %s", v, NAMES[__builtin_ctz(m)], text);
        free(text);
        cJSON_Delete(events);
    }
}

/* ---- why a move is not legal ---- */

/* The explanation of the play of `card` with `call` (0, 1 walls, 2 cannons) at st. */
static void expect_explain(const rp_state *st, const char *card, unsigned call, const char *want)
{
    const rp_action a = (rp_action)card_id(card, strlen(card)) | (rp_action)call << 5;
    char buf[256];
    assert_false(rp_is_legal(G, st, a));
    rp_explain_illegal(G, st, a, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("%s (call %u): '%s', wanted '%s'", card, call, buf, want);
}

/* KD-4, KD-5, KD-P1 in the game's words, never telling where a hidden card is (KD-10, KD-P3). */
static void test_explain_illegal(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    expect_explain(&st, "wizard-2", 0,
                   "wizard-2 sets the trick suit: play it naming walls or cannons (KD-4)");
    expect_explain(&st, "walls-3", 1,
                   "only a Wizard names the trick suit: play walls-3 without a call");
    rp_test_play(G, &st, "walls-3");
    expect_explain(&st, "cannons-5", 0, "you must follow Walls: you hold walls-5, walls-6 (KD-5)");
    expect_explain(&st, "wizard-3", 0, "you must follow Walls: you hold walls-5, walls-6 (KD-5)");
    expect_explain(&st, "king-of-danger", 0, "you do not have king-of-danger in hand");
    expect_explain(&st, "walls-3", 0, "walls-3 is already in this trick");
    expect_explain(&st, "wizard-7", 0, "wizard-7 is set aside face up this hand (KD-2)");
    play_all(&st, "walls-5,walls-7,walls-1");
    expect_explain(&st, "walls-5", 0, "walls-5 was played earlier in this hand");
    char buf[256];
    rp_explain_illegal(G, &st, 31, buf, sizeof buf);
    assert_string_equal(buf, "action 31 is no play of a card");
    rp_action legal[RP_MAX_LEGAL];
    assert_true(G->legal_actions(&st, legal) > 0);
    assert_true(G->explain_illegal(&st, legal[0], buf, sizeof buf) < 0);
    /* KD-P1: a Wizard that does not set the suit names nothing */
    rp_test_load(G, &st, GREEN_NO_WALLS);
    rp_test_play(G, &st, "walls-4");
    expect_explain(&st, "wizard-3", 2,
                   "the trick suit is already Walls: play wizard-3 without a call (KD-P1)");
    /* two players: the other table's face-up cards are public; a face-down card, the
     * player's own included, and the other hand read alike (KD-P3) */
    rp_test_load(G, &st, TWO);
    expect_explain(&st, "walls-3", 0, "walls-3 lies face up on Blue's table, not yours");
    expect_explain(&st, "cannons-6", 0,
                   "you do not have cannons-6 in hand or face up on your table");
    expect_explain(&st, "cannons-3", 0,
                   "you do not have cannons-3 in hand or face up on your table");
    expect_explain(&st, "king-of-danger", 0,
                   "you do not have king-of-danger in hand or face up on your table");
    rp_test_load(G, &st, TWO_WALLS_FACE_UP);
    rp_test_play(G, &st, "walls-5");
    expect_explain(&st, "cannons-1", 0, "you must follow Walls: you hold walls-1, walls-3 (KD-5)");
}

/* ---- secret names (leak tests) ---- */

/* Names of a set of cards, space-separated, in id order. */
static void names_of(uint32_t m, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (; m; m &= m - 1)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "",
                                NAMES[__builtin_ctz(m)]);
}

static void expect_secrets(const rp_state *st, int viewer, uint32_t want)
{
    char got[1024], wanted[1024];
    assert_true(G->secret_names(st, viewer, got, sizeof got) >= 0);
    names_of(want, wanted, sizeof wanted);
    assert_string_equal(got, wanted);
}

/* KD-10, KD-P3 against the referee's state: other hands, every face-down card (the viewer's
 * own too); the spectator: every hand. At a new hand the old last trick is on show, so its
 * cards, though dealt again, are no secret. */
static void test_secret_names(void **unused)
{
    (void)unused;
    rp_state st;
    rp_test_load(G, &st, FOUR);
    const kd_state *s = K(&st);
    expect_secrets(&st, 0, s->hand[1] | s->hand[2] | s->hand[3]);
    expect_secrets(&st, 2, s->hand[0] | s->hand[1] | s->hand[3]);
    expect_secrets(&st, RP_SPECTATOR, KD_ALL & ~s->aside);
    rp_test_load(G, &st, TWO);
    expect_secrets(&st, 0, s->hand[1] | s->down[0] | s->down[1]);
    expect_secrets(&st, RP_SPECTATOR, s->hand[0] | s->hand[1] | s->down[0] | s->down[1]);
    last_trick_state(&st, "1,2,3,4", "10,10,10,10");
    assert_int_equal(s->hand_number, 6);
    expect_secrets(&st, 0,
                   (s->hand[1] | s->hand[2] | s->hand[3]) &
                       ~mask_of("walls-1,walls-2,walls-3,walls-4"));
    char small[8];
    assert_true(G->secret_names(&st, 0, small, sizeof small) < 0);
}

/* ---- property runs ---- */

/* The game's own invariants: all 26 cards in exactly one place, castle values in 1..8, every
 * seat holding the number of cards the trick position needs, known voids true. */
static void check_invariants(const kd_state *s)
{
    const int n = s->players;
    assert_true(n >= 2 && n <= KD_MAX_PLAYERS);
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

/* No name secret_names gives (checked against the referee's state above) appears in any
 * viewer's view (but for its "game" field, see cards_view_text) or on their screen. */
static void check_no_secret_shown(const rp_state *st)
{
    for (int v = RP_SPECTATOR; v < K((rp_state *)st)->players; v++) {
        if (v == RP_TERMINAL)
            continue;
        char secrets[1024];
        assert_true(G->secret_names(st, v, secrets, sizeof secrets) >= 0);
        char *view = cards_view_text(st, v), *screen = render_text(st, v, false);
        for (char *name = strtok(secrets, " "); name; name = strtok(NULL, " ")) {
            char quoted[40];
            snprintf(quoted, sizeof quoted, "\"%s\"", name);
            if (strstr(view, quoted) || strstr(screen, name))
                fail_msg("viewer %d is shown the secret %s:\n%s\n%s", v, name, view, screen);
        }
        free(view);
        free(screen);
    }
}

/* A record replays as the game that was played (issue 18): a game set up from the options
 * config_of reports for the final state, with the same seed, and the same actions ends in the
 * same bytes. */
static void check_replay(const rp_state *final, uint64_t seed, const rp_action *actions, int n)
{
    rp_config base, cfg;
    rp_error err = {{0}};
    rp_config_default(G, &base);
    base.seed = seed;
    rp_config_of(G, final, &base, &cfg);
    rp_state st;
    if (G->init(&st, &cfg, &err) < 0)
        fail_msg("the options in effect do not set up a game: %s", err.msg);
    for (int i = 0; i < n; i++)
        assert_int_equal(rp_apply_checked(G, &st, actions[i], &err), RP_OK);
    assert_memory_equal(&st, final, G->state_size);
}

#define KD_MAX_GAME 20000 /* actions recorded for the replay check */

/* rp_test_games(RP_TEST_SOAK_GAMES) random games (make soak's size; a faster default would lose nothing
 * the sampling below does not already trade). At every step of every game: the game's own
 * invariants, the scores never falling, and state_ok (asserted by apply in this debug build).
 * Every step of 1 game in 100: the generic per-step checks (rp_test_check_step: legal moves'
 * notation and data, the full-state round trip, and for every seat and the spectator the view,
 * the screen and the events against determinizing), no secret on any view or screen, and at
 * the end a replay from the options in effect. One random step of every other game: the same
 * per-step checks. A game checked at every step costs about 0.2 s under ASan (views, screens
 * and events for every viewer at ~150 steps), so checking every game so would take over two
 * hours; this sampling keeps the default program near 2 minutes on one core. */
static void property_run(int players)
{
    const int games = rp_test_games(RP_TEST_SOAK_GAMES);
    static rp_action actions[KD_MAX_GAME];
    rp_rng rng;
    rp_rng_seed(&rng, (uint64_t)players, 17);
    for (int g = 0; g < games; g++) {
        const bool every_step = g % 100 == 0;
        rp_state st;
        char opts[48];
        snprintf(opts, sizeof opts, "players=%d seed=%d", players, g);
        rp_test_init(G, &st, opts);
        uint32_t last_scores[KD_MAX_PLAYERS] = {0};
        const int probe = 1 + (int)rp_rng_below(&rng, 60);
        int steps = 0;
        while (G->current_player(&st) != RP_TERMINAL) {
            assert_true(steps < KD_MAX_GAME);
            check_invariants(K(&st));
            if (every_step || steps == probe) {
                rp_test_check_step(G, &st, &rng);
                check_no_secret_shown(&st);
            }
            for (int p = 0; p < players; p++) {
                assert_true(K(&st)->score[p] >= last_scores[p]);
                last_scores[p] = K(&st)->score[p];
            }
            rp_action legal[RP_MAX_LEGAL];
            const int n = G->legal_actions(&st, legal);
            actions[steps++] = legal[rp_rng_below(&rng, (uint32_t)n)];
            G->apply(&st, actions[steps - 1]);
        }
        check_invariants(K(&st));
        check_round_trip(&st);
        rp_test_check_returns(G, &st);
        if (every_step) {
            check_no_secret_shown(&st);
            check_replay(&st, (uint64_t)g, actions, steps);
        }
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

/* apply's fast paths (castles moved all at once for KD-8, the seat to act kept in the state,
 * the KD-4 and KD-6 tables, the dealt hands as masks) against the told play (kd_play with a
 * story, what events_json narrates): the told play moves each castle by itself, one seat at
 * a time (KD-8: "Walls trick: winner +2; each other player who played a Walls card +1 (two
 * players: winner +1 only). Cannons trick: every non-winner -1. Clamp to 1..8"). Over random
 * games of every size both reach the very same bytes at every step. */
static void test_apply_is_the_told_play(void **unused)
{
    (void)unused;
    rp_rng rng;
    rp_rng_seed(&rng, 56, 50);
    int tricks_scored = 0;
    for (int players = 2; players <= KD_MAX_PLAYERS; players++)
        for (int g = 0; g < 25; g++) {
            rp_state st;
            char opts[48];
            snprintf(opts, sizeof opts, "players=%d seed=%d", players, 1000 + g);
            rp_test_init(G, &st, opts);
            while (G->current_player(&st) != RP_TERMINAL) {
                rp_action legal[RP_MAX_LEGAL];
                const int n = G->legal_actions(&st, legal);
                const rp_action a = legal[rp_rng_below(&rng, (uint32_t)n)];
                rp_state told = st;
                kd_story story;
                memset(&story, 0, sizeof story);
                G->apply(&st, a);
                kd_play(K(&told), a, &story);
                assert_memory_equal(&st, &told, G->state_size);
                tricks_scored += story.trick_len == players && K(&st)->last_winner != KD_NONE;
            }
        }
    assert_true(tricks_scored > 1000); /* the castles moved on many tricks */
}

/* KD-6 (3) and KD-13, the order kd_win_key encodes: a card of the trick suit ranks by twice its
 * number plus one (it beats a Wizard of the same number: "a tie between a trick-suit card and a
 * Wizard goes to the trick-suit card"), a Wizard by twice its number, and Kings and off-suit
 * numbers never win by number (0). Numbers from the rulebook's deck list: Walls 1-7, Cannons
 * 1-7, Wizards 1-8 (card ids as NAMES). */
static void test_kd6_win_keys_follow_the_rule(void **unused)
{
    (void)unused;
    for (int suit = KD_SUIT_NONE; suit <= KD_SUIT_CANNONS; suit++)
        for (int c = 0; c < KD_CARDS; c++) {
            const bool walls = c >= 4 && c <= 10, cannons = c >= 11 && c <= 17, wizard = c >= 18;
            const int number = walls ? c - 3 : cannons ? c - 10 : wizard ? c - 17 : 0;
            const bool of_suit =
                (suit == KD_SUIT_WALLS && walls) || (suit == KD_SUIT_CANNONS && cannons);
            const int want = of_suit ? 2 * number + 1 : wizard ? 2 * number : 0;
            if (kd_win_key[suit][c] != want)
                fail_msg("suit %d, %s: key %d, the rule gives %d", suit, NAMES[c],
                         kd_win_key[suit][c], want);
        }
}

/* KD-2: "Shuffle all 26 cards ... and deal an equal number to each player", the rest set aside;
 * the deal's card tables (the deck in id order, each card's bit) against a plain shuffle of
 * the deck 0..25 from the game's generator, dealt in order, for every player count of KD-2. */
static void test_kd2_deal_is_the_shuffled_deck_in_order(void **unused)
{
    (void)unused;
    for (int players = 3; players <= KD_MAX_PLAYERS; players++)
        for (int seed = 0; seed < 50; seed++) {
            rp_state st;
            char opts[48];
            snprintf(opts, sizeof opts, "players=%d seed=%d", players, seed);
            rp_test_init(G, &st, opts);
            rp_rng rng;
            rp_rng_seed(&rng, (uint64_t)seed, 0x4b44u); /* kd_init's stream */
            uint8_t deck[KD_CARDS];
            for (int c = 0; c < KD_CARDS; c++)
                deck[c] = (uint8_t)c;
            rp_rng_shuffle_u8(&rng, deck, KD_CARDS);
            const int per = KD_CARDS / players;
            uint32_t aside = 0;
            for (int p = 0; p < players; p++) {
                uint32_t hand = 0;
                for (int i = 0; i < per; i++)
                    hand |= 1u << deck[p * per + i];
                assert_int_equal(K(&st)->hand[p], hand);
            }
            for (int i = players * per; i < KD_CARDS; i++)
                aside |= 1u << deck[i];
            assert_int_equal(K(&st)->aside, aside);
        }
}

/* One random short game (KD-P6) under "players=2 deal=P+H seed=N": its deal is `piles` piles
 * and `hand` hand cards a seat from `deck`, for one hand. Every step keeps the notation round
 * trip, what each seat may see (the referee's secrets shown to nobody) and the options
 * config_of reports; the end gives the sole highest score the win and a shared one half each.
 * Returns the winner, or KD_NONE for a draw. */
static int play_short_game(int piles, int hand, int seed, uint32_t deck, rp_rng *rng)
{
    char opts[64], deal[8];
    snprintf(deal, sizeof deal, "%d+%d", piles, hand);
    snprintf(opts, sizeof opts, "players=2 deal=%s seed=%d", deal, seed);
    rp_state st;
    rp_test_init(G, &st, opts);
    const kd_state *s = K(&st);
    int steps = 0;
    while (G->current_player(&st) != RP_TERMINAL) {
        rp_test_check_step(G, &st, rng);
        check_no_secret_shown(&st);
        check_round_trip(&st);
        rp_config now;
        G->config_of(&st, &now);
        assert_true(now.given[KD_OPT_DEAL]);
        assert_string_equal(now.text[KD_OPT_DEAL], deal);
        if (s->played == 0 && s->trick_len == 0) /* the deal: the deck, dealt as KD-P6 says */
            for (int p = 0; p < 2; p++) {
                assert_int_equal(s->hand[p] | s->up[p] | s->down[p] | s->hand[1 - p] |
                                     s->up[1 - p] | s->down[1 - p],
                                 deck);
                assert_int_equal(__builtin_popcount(s->hand[p]), hand);
                assert_int_equal(__builtin_popcount(s->up[p]), piles);
                assert_int_equal(__builtin_popcount(s->down[p]), piles);
                for (int i = piles; i < KD_PILES; i++)
                    assert_true(s->pile_top[p][i] == KD_NONE && s->pile_under[p][i] == KD_NONE);
            }
        rp_test_random_step(G, &st, rng);
        steps++;
    }
    /* every card dealt is played (KD-P4), and the game ends after the one hand */
    assert_int_equal(steps, __builtin_popcount(deck));
    assert_int_equal(s->hand_number, 1);
    check_round_trip(&st);
    double r[2];
    G->returns(&st, r);
    if (s->score[0] == s->score[1]) {
        assert_int_equal(s->winner, KD_NONE);
        assert_true(r[0] == 0.5 && r[1] == 0.5);
        return KD_NONE;
    }
    const int best = s->score[0] > s->score[1] ? 0 : 1;
    assert_int_equal(s->winner, best);
    assert_true(r[best] == 1.0 && r[1 - best] == 0.0);
    return best;
}

/* KD-P6, the short game: deal=1+1 deals each seat one pile (a face-down card under a face-up
 * one) and one hand card from the deck's first six cards in KD-P6's order (walls-1, cannons-1,
 * wizard-1, king-of-danger, walls-2, cannons-2); deal=0+2 two hand cards from its first four.
 * The game ends after that one hand: the sole highest score wins, a shared one is a draw.
 * Three tricks of a point each never tie (a castle stops at 1 only after two lost tricks),
 * two can. */
static void test_short_game_kd_p6(void **unused)
{
    (void)unused;
    const uint32_t six = mask_of("walls-1,cannons-1,wizard-1,king-of-danger,walls-2,cannons-2");
    const uint32_t four = mask_of("walls-1,cannons-1,wizard-1,king-of-danger");
    int wins = 0, draws = 0;
    rp_rng rng;
    rp_rng_seed(&rng, 6, 17);
    for (int seed = 1; seed <= 40; seed++) {
        assert_int_not_equal(play_short_game(1, 1, seed, six, &rng), KD_NONE);
        const int winner = play_short_game(0, 2, seed, four, &rng);
        wins += winner != KD_NONE;
        draws += winner == KD_NONE;
    }
    assert_true(wins > 0 && draws > 0);
    /* deal=4+5 is the rulebook's deal, all 26 cards, played for one hand */
    rp_state st;
    rp_test_init(G, &st, "players=2 deal=4+5 seed=3");
    assert_int_equal(K(&st)->hand[0] | K(&st)->hand[1] | K(&st)->up[0] | K(&st)->up[1] |
                         K(&st)->down[0] | K(&st)->down[1],
                     KD_ALL);
    while (G->current_player(&st) != RP_TERMINAL)
        rp_test_random_step(G, &st, &rng);
    assert_int_equal(K(&st)->hand_number, 1);
}

/* KD-P6's option: a malformed deal, or one with more than two players, is refused with the
 * reason and nothing set up; the notation writes the deal only for a short game and refuses it
 * with more than two players. */
static void test_short_game_options_refused(void **unused)
{
    (void)unused;
    static const char *const bad[] = {"5+1", "1+0", "1+6", "11", "1+1+1", "x+1", "-1+1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rp_config cfg;
        rp_config_default(G, &cfg);
        rp_error err = {{0}};
        char kv[32];
        snprintf(kv, sizeof kv, "deal=%s", bad[i]);
        assert_int_equal(rp_config_set(G, &cfg, "players=2", &err), RP_OK);
        assert_int_equal(rp_config_set(G, &cfg, kv, &err), RP_OK); /* text: init judges it */
        rp_state st;
        memset(&st, 0x5A, sizeof st);
        const rp_state before = st;
        assert_int_equal(G->init(&st, &cfg, &err), RP_EINVAL);
        if (!strstr(err.msg, "write PILES+HAND-CARDS"))
            fail_msg("deal=%s refused without the reason: %s", bad[i], err.msg);
        assert_memory_equal(&st, &before, sizeof st);
    }
    rp_config cfg;
    rp_config_default(G, &cfg);
    rp_error err = {{0}};
    assert_int_equal(rp_config_set(G, &cfg, "deal=1+1", &err), RP_OK);
    rp_state st;
    assert_int_equal(G->init(&st, &cfg, &err), RP_EINVAL); /* four players by default */
    assert_non_null(strstr(err.msg, "for two players"));
    /* the rulebook's game writes no deal; a short game's notation carries it */
    rp_test_init(G, &st, "players=2 seed=3");
    char text[RP_STATE_TEXT];
    assert_true(G->state_to_text(&st, text, sizeof text) > 0);
    assert_null(strstr(text, "deal="));
    rp_test_init(G, &st, "players=2 deal=0+2 seed=3");
    assert_true(G->state_to_text(&st, text, sizeof text) > 0);
    assert_non_null(strstr(text, " dealer=0 deal=0+2 hand=1 "));
    /* a deal on four players' notation is refused, the state unchanged */
    rp_test_init(G, &st, "players=4 seed=3");
    assert_true(G->state_to_text(&st, text, sizeof text) > 0);
    char edited[RP_STATE_TEXT];
    const char *at = strstr(text, " hand=1 ");
    assert_non_null(at);
    snprintf(edited, sizeof edited, "%.*s deal=1+1%s", (int)(at - text), text, at);
    rp_state back = st;
    assert_true(G->state_from_text(&back, edited, &err) < 0);
    assert_non_null(strstr(err.msg, "two players"));
    assert_memory_equal(&back, &st, sizeof st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cards_carry_the_numbers_the_rulebook_prints),
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
        cmocka_unit_test(test_fitted_evaluate_values_kings),
        cmocka_unit_test(test_notation_only_the_canonical_spelling_loads),
        cmocka_unit_test(test_state_ok_finds_broken_invariants),
        cmocka_unit_test(test_config_of_reports_players_and_first_dealer),
        cmocka_unit_test(test_config_of_a_loaded_position_replays),
        cmocka_unit_test(test_turn_number_counts_tricks),
        cmocka_unit_test(test_spectator_view_is_public),
        cmocka_unit_test(test_two_player_table_rows_are_arrays),
        cmocka_unit_test(test_actions_as_data),
        cmocka_unit_test(test_events_lead_suit_and_call),
        cmocka_unit_test(test_events_void_once),
        cmocka_unit_test(test_events_trick_won_by_the_highest),
        cmocka_unit_test(test_events_winner_cases),
        cmocka_unit_test(test_events_castles_at_the_limits),
        cmocka_unit_test(test_events_hand_over_and_deal),
        cmocka_unit_test(test_events_game_over),
        cmocka_unit_test(test_events_tie_plays_another_hand),
        cmocka_unit_test(test_events_two_player_flip),
        cmocka_unit_test(test_events_two_player_deal),
        cmocka_unit_test(test_explain_illegal),
        cmocka_unit_test(test_secret_names),
        cmocka_unit_test(test_apply_is_the_told_play),
        cmocka_unit_test(test_kd6_win_keys_follow_the_rule),
        cmocka_unit_test(test_kd2_deal_is_the_shuffled_deck_in_order),
        cmocka_unit_test(test_property_two_players),
        cmocka_unit_test(test_property_three_players),
        cmocka_unit_test(test_property_four_players),
        cmocka_unit_test(test_property_five_players),
        cmocka_unit_test(test_short_game_kd_p6),
        cmocka_unit_test(test_short_game_options_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
