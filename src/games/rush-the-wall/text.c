/* text.c — Rush the Wall's text: action notation both ways, why an action is not legal,
 * the invariants of a state (state_ok) and the rw1 full-state notation. */
#include "games/rush-the-wall/internal.h"

#include <stdio.h>
#include <string.h>

#include "core/legal.h"
#include "core/notation.h"
#include "core/words.h"

/* ---- action notation, why an action is not legal ---- */

/* A fort's label, kind then value: "legion-2", "dinary5", "tax8" (moves, views, events). */
int rtw_fort_label(const rtw_cards *c, int f, char *buf, size_t size)
{
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__text_str(&t, c->fort_kind[f] < RTW_FORT_KINDS ? fort_word[c->fort_kind[f]] : "?");
    rp__put_int(&t, c->fort_value[f]);
    return rp__text_finish(&t);
}

/* A fort for people: "Legion -2", "Fort-Dinary 5". */
void rtw_fort_text(const rtw_cards *c, int f, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", fort_name[c->fort_kind[f]], c->fort_value[f]);
}

/* A warrior for people, with its strength: "Arch'r 5". */
void rtw_warrior_text(const rtw_state *s, int k, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d", warrior_name[k], s->cards.strength[k]);
}

/* Two words joined by a space into buf; the length or RP_ENOSPACE. */
static int two_words(char *buf, size_t size, const char *verb, const char *arg)
{
    size_t a = strlen(verb), b = strlen(arg);
    if (a + 1 + b >= size)
        return RP_ENOSPACE;
    memcpy(buf, verb, a);
    buf[a] = ' ';
    memcpy(buf + a + 1, arg, b);
    buf[a + 1 + b] = '\0';
    return (int)(a + 1 + b);
}

int rtw_action_to_text(const void *st, rp_action action, char *buf, size_t size)
{
    const rtw_state *s = st;
    char arg[32];
    if (action < RTW_A_HIDDEN)
        return two_words(buf, size, "place", warrior_word[action]);
    if (action == RTW_A_HIDDEN)
        return two_words(buf, size, "place", "hidden");
    if (action < RTW_A_TAKE)
        return two_words(buf, size, "charm", clan_word[action - RTW_A_CHARM]);
    if (action < RTW_A_DISCARD) {
        arg[0] = (char)('1' + (action - RTW_A_TAKE));
        arg[1] = '\0';
        return two_words(buf, size, "take", arg);
    }
    if (action < RTW_A_PAY)
        return two_words(buf, size, "discard", warrior_word[action - RTW_A_DISCARD]);
    if (action < RTW_A_KEEP_AXX) {
        rtw_fort_label(&s->cards, (int)(action - RTW_A_PAY), arg, sizeof arg);
        return two_words(buf, size, "pay", arg);
    }
    if (action == RTW_A_KEEP_AXX)
        return two_words(buf, size, "keep", "axx");
    if (action == RTW_A_DROP_AXX)
        return two_words(buf, size, "drop", "axx");
    return RP_EINVAL;
}

/* The fort id "pay LABEL" names here: the Tax choice with that label, else the first such
 * card of the table (which will then not be legal). */
static int fort_from_label(const rtw_state *s, const char *label, rp_action *out, rp_error *err)
{
    char buf[32];
    if (s->phase == RTW_TAX_PICK) {
        for (uint32_t m = rtw_tax_choices(s); m; m &= m - 1) {
            rtw_fort_label(&s->cards, lowest_bit(m), buf, sizeof buf);
            if (strcmp(buf, label) == 0) {
                *out = RTW_A_PAY + (rp_action)lowest_bit(m);
                return RP_OK;
            }
        }
    }
    for (int f = 0; f < RTW_FORTS; f++) {
        rtw_fort_label(&s->cards, f, buf, sizeof buf);
        if (strcmp(buf, label) == 0) {
            *out = RTW_A_PAY + (rp_action)f;
            return RP_OK;
        }
    }
    return rp_fail(err, RP_EPARSE, "no fort '%s' (forts are written like legion-2 or dinary5)",
                   label);
}

int rtw_action_from_text(const void *st, const char *text, rp_action *out, rp_error *err)
{
    const rtw_state *s = st;
    char copy[64] = {0}, *word[2];
    int n = 0;
    if (strlen(text) < sizeof copy) {
        /* Forgiving about case and apostrophes, so that a warrior can be typed as the hand
         * shows it ("place Dru'hid" is "place druhid"). */
        size_t len = 0;
        for (const char *c = text; *c; c++)
            if (*c != '\'')
                copy[len++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        n = rp__split_words(copy, word, 2);
    }
    const char *verb = n > 0 ? word[0] : "", *arg = n > 1 ? word[1] : "";
    if (n != 2)
        return rp_fail(err, RP_EPARSE,
                       "'%s': expected two words such as 'place axx', "
                       "'charm red', 'take 4', 'discard horsie', 'pay legion-2', 'keep axx'",
                       text);
    int k;
    if (strcmp(verb, "place") == 0 || strcmp(verb, "discard") == 0) {
        bool place = verb[0] == 'p';
        if (place && strcmp(arg, "hidden") == 0) {
            *out = RTW_A_HIDDEN;
            return RP_OK;
        }
        if ((k = rp__word_index(warrior_word, RTW_KINDS, arg)) < 0)
            return rp_fail(err, RP_EPARSE,
                           "unknown warrior '%s' (filchy, qween, druhid, zvord, "
                           "archr, horsie, axx, chariott, laird)",
                           arg);
        *out = (place ? RTW_A_PLACE : RTW_A_DISCARD) + (rp_action)k;
        return RP_OK;
    }
    if (strcmp(verb, "charm") == 0) {
        if ((k = rp__word_index(clan_word, RTW_MAX_CLANS, arg)) < 0)
            return rp_fail(err, RP_EPARSE, "unknown clan '%s' (green, red, gold, blue)", arg);
        *out = RTW_A_CHARM + (rp_action)k;
        return RP_OK;
    }
    if (strcmp(verb, "take") == 0) {
        long p;
        if (!rp__parse_long(arg, 1, RTW_SLOTS, &p))
            return rp_fail(err, RP_EPARSE, "take '%s': expected a wall position 1..6", arg);
        *out = RTW_A_TAKE + (rp_action)(p - 1);
        return RP_OK;
    }
    if (strcmp(verb, "pay") == 0)
        return fort_from_label(s, arg, out, err);
    if ((strcmp(verb, "keep") == 0 || strcmp(verb, "drop") == 0) && strcmp(arg, "axx") == 0) {
        *out = verb[0] == 'k' ? RTW_A_KEEP_AXX : RTW_A_DROP_AXX;
        return RP_OK;
    }
    return rp_fail(err, RP_EPARSE,
                   "unknown move '%s' (place, charm, take, discard, pay, keep axx, drop axx)",
                   text);
}

static void fort_label_of(const rtw_state *s, int f, char *buf, size_t size)
{
    rtw_fort_label(&s->cards, f, buf, size);
}

/* The items of mask, named, comma-separated ("Axx 7, Laird 9"), or "none", into t. */
void rtw_list_items(rp_text *t, const rtw_state *s, uint32_t mask, item_namer name)
{
    char buf[48];
    if (!mask)
        rp__text_str(t, "none");
    for (int first = 1; mask; mask &= mask - 1, first = 0) {
        name(s, lowest_bit(mask), buf, sizeof buf);
        rp__text_str(t, first ? "" : ", ");
        rp__text_str(t, buf);
    }
}

void rtw_list_warriors(rp_text *t, const rtw_state *s, uint32_t mask)
{
    rtw_list_items(t, s, mask, rtw_warrior_text);
}

/* What the phase asks for, as the move to type. */
static const char *const phase_move[RTW_PHASES] = {
    "place a warrior face down: place WARRIOR",
    "place its hidden warriors again (Zvord): place WARRIOR",
    "pick the rival warrior its Qween charms: charm CLAN",
    "pick the fort its Dru'hid takes: take POSITION",
    "discard a face-up warrior for the Signal Fort: discard WARRIOR",
    "pay one of its other forts for the Tax-Collector's Fort: pay FORT",
    "keep its Axx face up or drop it: keep axx or drop axx",
    "discard a face-up warrior for its Horsie: discard WARRIOR",
    ""};

/* The action's family matches the phase (place, charm, take, discard, pay, keep/drop). */
static bool fits_phase(const rtw_state *s, rp_action a)
{
    switch (s->phase) {
    case RTW_PLAN:
    case RTW_ZVORD_PLACE:
        return a < RTW_A_HIDDEN;
    case RTW_QWEEN_PICK:
        return a >= RTW_A_CHARM && a < RTW_A_TAKE;
    case RTW_DRUHID_PICK:
        return a >= RTW_A_TAKE && a < RTW_A_DISCARD;
    case RTW_SIGNAL_PICK:
    case RTW_HORSIE_PICK:
        return a >= RTW_A_DISCARD && a < RTW_A_PAY;
    case RTW_TAX_PICK:
        return a >= RTW_A_PAY && a < RTW_A_KEEP_AXX;
    case RTW_AXX_PICK:
        return a == RTW_A_KEEP_AXX || a == RTW_A_DROP_AXX;
    default:
        return false;
    }
}

/* Why a placement of warrior k is not legal: not drawn, set aside, or already placed. */
static void explain_place(const rtw_state *s, rp_text *t, int k)
{
    int a = s->actor;
    for (int i = 0; i < RTW_SLOTS; i++)
        if (s->slot[a][i] == k) {
            rp__text_put(t, "your %s is already %s at slot %d", warrior_name[k],
                         i < shown_slots(s) ? "turned up" : "placed", i + 1);
            return;
        }
    rp__text_put(t, "%s is not among the warriors you may place now (", warrior_name[k]);
    rtw_list_warriors(t, s, s->hand[a]);
    rp__text_ch(t, ')');
}

static void explain_charm(const rtw_state *s, rp_text *t, int c)
{
    if (c >= s->clans)
        rp__text_put(t, "there is no %s clan in this game", clan_name[c]);
    else if (c == s->actor)
        rp__text_str(t, "the Qween charms a rival clan's warrior, not one of your own");
    else
        rp__text_put(t, "%s's warrior of this turn is no longer face up (the Ch'ariotts collided)",
                     clan_name[c]);
}

static void explain_discard(const rtw_state *s, rp_text *t, int k)
{
    int a = s->actor;
    if (s->phase == RTW_HORSIE_PICK && k == RTW_HORSIE && (s->up[a] & BIT(k))) {
        rp__text_str(t, "your Horsie makes you discard another face-up warrior; she goes only "
                        "when she is alone (RW-9)");
        return;
    }
    rp__text_put(t, "%s is not face up (face up: ", warrior_name[k]);
    rtw_list_warriors(t, s, s->up[a]);
    rp__text_ch(t, ')');
}

static void explain_pay(const rtw_state *s, rp_text *t, int f)
{
    char label[32];
    rtw_fort_label(&s->cards, f, label, sizeof label);
    if (f == s->captured) {
        rp__text_str(t, "you pay one of your other forts; the Tax-Collector's goes only when "
                        "you hold no other (RW-17)");
        return;
    }
    rp__text_put(t, "you do not hold %s (you may pay: ", label);
    rtw_list_items(t, s, rtw_tax_choices(s), fort_label_of);
    rp__text_ch(t, ')');
}

int rtw_explain_illegal(const void *st, rp_action action, char *buf, size_t size)
{
    const rtw_state *s = st;
    rp_text t;
    rp__text_init(&t, buf, size);
    if (s->phase == RTW_OVER || action >= RTW_NUM_ACTIONS ||
        rp__is_legal_by(rtw_legal_actions, s, action))
        return -1;
    if (action == RTW_A_HIDDEN)
        rp__text_str(&t, "'place hidden' stands for another clan's placement; name the warrior "
                         "you place (place axx)");
    else if (!fits_phase(s, action))
        rp__text_put(&t, "%s must now %s", clan_name[s->actor], phase_move[s->phase]);
    else if (action < RTW_A_HIDDEN)
        explain_place(s, &t, (int)action);
    else if (action < RTW_A_TAKE)
        explain_charm(s, &t, (int)(action - RTW_A_CHARM));
    else if (action < RTW_A_DISCARD)
        rp__text_put(&t, "wall position %d %s", (int)(action - RTW_A_TAKE) + 1,
                     (int)(action - RTW_A_TAKE) < s->turn ? "was fought over already"
                                                          : "holds no fort");
    else if (action < RTW_A_PAY)
        explain_discard(s, &t, (int)(action - RTW_A_DISCARD));
    else if (action < RTW_A_KEEP_AXX)
        explain_pay(s, &t, (int)(action - RTW_A_PAY));
    else
        return -1;
    return rp__text_finish(&t);
}

/* ---- invariants of a state (state_ok: every loaded state, every apply in debug builds) ---- */

/* Every slot kind of a clan as a mask; false when a kind repeats or is out of range. */
static bool slot_mask(const rtw_state *s, int c, int from, int to, uint16_t *out, int *filled)
{
    uint16_t m = 0;
    *filled = 0;
    for (int i = from; i < to; i++) {
        int k = s->slot[c][i];
        if (k == RTW_NONE)
            continue;
        if (k >= RTW_KINDS || (m & BIT(k)))
            return false;
        m |= BIT(k);
        ++*filled;
    }
    *out = m;
    return true;
}

/* Which slots must hold a warrior: [0, filled_to) filled, [filled_to, 6) empty. */
static int slots_filled_to(const rtw_state *s, int c)
{
    if (!is_player(s, c))
        return RTW_SLOTS;
    if (s->phase == RTW_PLAN)
        return c < s->actor ? RTW_SLOTS : c == s->actor ? s->next_slot : 0;
    if (s->phase == RTW_ZVORD_PLACE && c == s->actor)
        return s->next_slot;
    return RTW_SLOTS;
}

static int check_clan(const rtw_state *s, int c, rp_error *err)
{
    const char *name = clan_word[c];
    if ((s->hand[c] | s->drawn[c] | s->up[c]) & ~ALL_WARRIORS)
        return rp_fail(err, RP_EINVAL, "%s: warrior mask out of range", name);
    uint16_t in_slots;
    int filled, to = slots_filled_to(s, c);
    if (!slot_mask(s, c, 0, RTW_SLOTS, &in_slots, &filled))
        return rp_fail(err, RP_EINVAL, "%s: a warrior is placed twice", name);
    for (int i = 0; i < RTW_SLOTS; i++)
        if ((i < to) != (s->slot[c][i] != RTW_NONE))
            return rp_fail(err, RP_EINVAL, "%s: slot %d should be %s in this phase", name, i + 1,
                           i < to ? "filled" : "empty");
    int hand_size = popcount(s->hand[c]);
    if (in_slots & s->hand[c])
        return rp_fail(err, RP_EINVAL, "%s: a warrior both placed and in hand", name);
    if ((in_slots | s->hand[c]) & ~s->drawn[c])
        return rp_fail(err, RP_EINVAL, "%s: a placed or held warrior was not drawn", name);
    if (!is_player(s, c)) {
        if (s->hand[c] || s->drawn[c] != in_slots)
            return rp_fail(err, RP_EINVAL,
                           "%s: a neutral clan holds exactly its 6 placed warriors (RW-11)", name);
    } else {
        if (popcount(s->drawn[c]) != RTW_DRAW)
            return rp_fail(err, RP_EINVAL, "%s: a clan draws exactly 7 warriors (RW-5)", name);
        int want = 0;
        if (s->phase == RTW_PLAN && c >= s->actor)
            want = RTW_DRAW - to;
        else if (s->phase == RTW_ZVORD_PLACE && c == s->actor)
            want = RTW_SLOTS - to;
        if (hand_size != want)
            return rp_fail(err, RP_EINVAL, "%s: %d warriors in hand, expected %d", name, hand_size,
                           want);
    }
    int shown = s->phase == RTW_PLAN ? 0 : s->turn + 1;
    uint16_t revealed_mask = 0;
    slot_mask(s, c, 0, shown, &revealed_mask, &filled);
    if (s->up[c] & ~revealed_mask)
        return rp_fail(err, RP_EINVAL, "%s: a face-up warrior was never revealed", name);
    if ((s->forts[c] & ~ALL_FORTS))
        return rp_fail(err, RP_EINVAL, "%s: fort out of range", name);
    if (is_player(s, c) && s->phase != RTW_OVER && legions(s, c) >= RTW_LEGION_WIN)
        return rp_fail(err, RP_EINVAL, "%s holds %d Legions but the game goes on (RW-18)", name,
                       legions(s, c));
    return RP_OK;
}

/* Every fort drawn so far is in exactly one place: the wall, a clan, or the discards. */
static int check_forts(const rtw_state *s, rp_error *err)
{
    uint32_t seen = 0, drawn = 0, round_draw = 0;
    for (int i = 0; i < RTW_FORTS; i++) {
        if (s->deck[i] >= RTW_FORTS || (seen & (1u << s->deck[i])))
            return rp_fail(err, RP_EINVAL, "deck: not an order of the 18 forts");
        seen |= 1u << s->deck[i];
        if (i < RTW_SLOTS * (s->round + 1))
            drawn |= 1u << s->deck[i];
        if (i / RTW_SLOTS == s->round)
            round_draw |= 1u << s->deck[i];
    }
    uint32_t placed = 0;
    for (int i = 0; i < RTW_SLOTS; i++) {
        int f = s->wall[i];
        if (f == RTW_NONE)
            continue;
        if (f >= RTW_FORTS || !(round_draw & (1u << f)) || (placed & (1u << f)))
            return rp_fail(err, RP_EINVAL, "wall: fort %d was not drawn this round", f);
        placed |= 1u << f;
    }
    if (s->gone & ~ALL_FORTS)
        return rp_fail(err, RP_EINVAL, "discarded forts out of range");
    uint32_t sets[RTW_MAX_CLANS + 1];
    sets[0] = s->gone;
    for (int c = 0; c < s->clans; c++)
        sets[c + 1] = s->forts[c];
    for (int i = 0; i <= s->clans; i++) {
        if (placed & sets[i])
            return rp_fail(err, RP_EINVAL, "a fort is in two places at once");
        placed |= sets[i];
    }
    if (placed != drawn)
        return rp_fail(err, RP_EINVAL,
                       "the forts drawn so far are not all accounted for (wall, clans, discards)");
    for (int c = s->clans; c < RTW_MAX_CLANS; c++)
        if (s->forts[c] || s->hand[c] || s->drawn[c] || s->up[c])
            return rp_fail(err, RP_EINVAL, "clan %s is not in this game", clan_word[c]);
    return RP_OK;
}

/* The wall's shape: positions before the current fort are empty; the current one is filled
 * until it is captured or discarded; the rest are filled. */
static int check_wall(const rtw_state *s, rp_error *err)
{
    int ph = s->phase, t = s->turn;
    bool current_open = ph == RTW_PLAN || ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK;
    for (int i = 0; i < RTW_SLOTS; i++) {
        bool filled = i > t || (i == t && current_open);
        if (filled != (s->wall[i] != RTW_NONE))
            return rp_fail(err, RP_EINVAL, "wall position %d should be %s", i + 1,
                           filled ? "a fort" : "empty");
    }
    if (ph == RTW_PLAN) {
        uint8_t want[RTW_SLOTS];
        rtw_arrange_wall(&s->cards, &s->deck[(size_t)RTW_SLOTS * s->round], want);
        if (memcmp(want, s->wall, RTW_SLOTS) != 0)
            return rp_fail(err, RP_EINVAL, "wall: not in the order of RW-4 for this draw");
    }
    return RP_OK;
}

/* The game's end: nothing pending, and a winner only with three Legions (RW-18). */
static int check_over(const rtw_state *s, rp_error *err)
{
    if (s->actor != 0 || s->next_slot != 0 || s->keep != 0)
        return rp_fail(err, RP_EINVAL, "actor, next, keep: must be 0 when the game is over");
    if (s->winner >= 0 && (!is_player(s, s->winner) || legions(s, s->winner) < RTW_LEGION_WIN))
        return rp_fail(err, RP_EINVAL, "winner: needs three Legions (RW-18)");
    return RP_OK;
}

/* What every phase of a game still going on needs: no winner yet, a player clan to decide,
 * a next slot that fits the phase, planning before turn 1, and `keep` only for the Axx. */
static int check_going_on(const rtw_state *s, rp_error *err)
{
    int ph = s->phase;
    if (s->winner != -1)
        return rp_fail(err, RP_EINVAL, "winner: set while the game goes on");
    if (s->actor >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", s->actor);
    if (ph == RTW_PLAN          ? s->next_slot >= RTW_SLOTS
        : ph == RTW_ZVORD_PLACE ? (s->next_slot <= s->turn || s->next_slot > RTW_SLOTS - 2)
                                : s->next_slot != 0)
        return rp_fail(err, RP_EINVAL, "next: slot %d makes no sense in this phase",
                       s->next_slot + 1);
    if (ph == RTW_PLAN && s->turn != 0)
        return rp_fail(err, RP_EINVAL, "turn: planning happens before turn 1");
    if (s->keep && ph != RTW_AXX_PICK)
        return rp_fail(err, RP_EINVAL, "keep: only set before the capturer's Axx choice");
    return RP_OK;
}

/* Just after the reveal (the Qween's or the Dru'hid's choice), this turn's warriors are face
 * up, except Ch'ariotts revealed by two clans or more, which are discarded (RW-6). */
static int check_revealed_up(const rtw_state *s, rp_error *err)
{
    if (s->phase != RTW_QWEEN_PICK && s->phase != RTW_DRUHID_PICK)
        return RP_OK;
    int chariotts = 0;
    for (int c = 0; c < s->clans; c++)
        chariotts += revealed(s, c) == RTW_CHARIOTT;
    for (int c = 0; c < s->clans; c++) {
        bool gone = chariotts >= 2 && revealed(s, c) == RTW_CHARIOTT;
        if (gone == !!(s->up[c] & BIT(revealed(s, c))))
            return rp_fail(err, RP_EINVAL, "%s: this turn's warrior should be %s", clan_word[c],
                           gone ? "discarded (RW-6)" : "face up");
    }
    return RP_OK;
}

/* A warrior's phase belongs to the clan that revealed that warrior this turn. */
static int check_phase_warrior(const rtw_state *s, rp_error *err)
{
    static const int needs[RTW_PHASES] = {[RTW_ZVORD_PLACE] = RTW_ZVORD,
                                          [RTW_QWEEN_PICK] = RTW_QWEEN,
                                          [RTW_DRUHID_PICK] = RTW_DRUHID,
                                          [RTW_AXX_PICK] = RTW_AXX,
                                          [RTW_HORSIE_PICK] = RTW_HORSIE,
                                          [RTW_SIGNAL_PICK] = -1,
                                          [RTW_TAX_PICK] = -1};
    int ph = s->phase, a = s->actor;
    if (needs[ph] >= 0 && revealed(s, a) != needs[ph])
        return rp_fail(err, RP_EINVAL, "phase %s: %s did not reveal %s", phase_word[ph],
                       clan_word[a], warrior_name[needs[ph]]);
    return RP_OK;
}

/* The capture so far: none before the Qween has charmed, a capturer where the phase needs
 * one, and its fort held by it once taken (or already paid for its own tax, RW-17). */
static int check_capture(const rtw_state *s, rp_error *err)
{
    int ph = s->phase, cap = s->capturer;
    bool before_capture = ph == RTW_QWEEN_PICK || ph == RTW_DRUHID_PICK;
    bool needs_capture =
        ph == RTW_DRUHID_PICK || ph == RTW_SIGNAL_PICK || ph == RTW_TAX_PICK || ph == RTW_AXX_PICK;
    if (needs_capture && cap < 0)
        return rp_fail(err, RP_EINVAL, "capturer: phase %s needs one", phase_word[ph]);
    if (ph == RTW_QWEEN_PICK && cap != -1)
        return rp_fail(err, RP_EINVAL, "capturer: decided only after the Qween");
    if ((before_capture || cap < 0) != (s->captured == RTW_NONE))
        return rp_fail(err, RP_EINVAL, "captured: %s",
                       s->captured == RTW_NONE ? "the capturer's fort is missing"
                                               : "no fort was captured yet");
    /* a Tax-Collector's may already have been paid with itself (RW-17) */
    bool paid = ph == RTW_AXX_PICK && s->cards.fort_kind[s->captured] == RTW_TAX &&
                (s->gone & (1u << s->captured));
    if (needs_capture && !before_capture && !paid && !(s->forts[cap] & (1u << s->captured)))
        return rp_fail(err, RP_EINVAL, "captured: the capturer does not hold that fort");
    return RP_OK;
}

/* Who decides: the capturer takes with its Dru'hid, pays the tax and chooses for its Axx;
 * the Signal Fort's and a Horsie's discards are for the others. */
static int check_decider(const rtw_state *s, rp_error *err)
{
    int ph = s->phase;
    bool by_capturer = ph == RTW_DRUHID_PICK || ph == RTW_TAX_PICK || ph == RTW_AXX_PICK;
    bool by_others = ph == RTW_SIGNAL_PICK || ph == RTW_HORSIE_PICK;
    if (by_capturer && s->capturer != s->actor)
        return rp_fail(err, RP_EINVAL, "phase %s: the capturer decides", phase_word[ph]);
    if (by_others && s->capturer == s->actor)
        return rp_fail(err, RP_EINVAL, "phase %s: not for the capturer", phase_word[ph]);
    return RP_OK;
}

/* The decision has something to choose from: a rival warrior for the one Qween, a face-up
 * warrior for the Signal Fort, another fort to pay the tax with, an Axx face up and not yet
 * kept, something for a Horsie's discard. */
static int check_choices(const rtw_state *s, rp_error *err)
{
    int a = s->actor;
    switch (s->phase) {
    case RTW_QWEEN_PICK: {
        int qweens = 0;
        for (int c = 0; c < s->clans; c++)
            qweens += revealed(s, c) == RTW_QWEEN;
        if (qweens != 1 || !rtw_charm_choices(s, a))
            return rp_fail(err, RP_EINVAL, "phase qween: needs one Qween and a rival warrior");
        return RP_OK;
    }
    case RTW_SIGNAL_PICK:
        if (s->cards.fort_kind[s->captured] != RTW_SIGNAL || !s->up[a])
            return rp_fail(err, RP_EINVAL,
                           "phase signal: needs a captured Signal Fort and a face-up warrior");
        return RP_OK;
    case RTW_TAX_PICK:
        if (s->captured >= RTW_FORTS || s->cards.fort_kind[s->captured] != RTW_TAX ||
            !(s->forts[a] & (1u << s->captured)) || !rtw_tax_choices(s))
            return rp_fail(err, RP_EINVAL,
                           "phase tax: needs a captured Tax-Collector's Fort "
                           "and another fort to pay");
        return RP_OK;
    case RTW_AXX_PICK:
        if (!(s->up[a] & BIT(RTW_AXX)) || (s->keep & ~s->up[a]) || (s->keep & BIT(RTW_AXX)))
            return rp_fail(err, RP_EINVAL, "phase axx: the Axx must be face up and not yet kept");
        return RP_OK;
    case RTW_HORSIE_PICK:
        if (!horsie_choices(s, a))
            return rp_fail(err, RP_EINVAL, "phase horsie: nothing to discard");
        return RP_OK;
    default:
        return RP_OK;
    }
}

/* Per-phase preconditions that the decision and the rest of the turn rely on, first broken
 * one reported. */
static int check_phase(const rtw_state *s, rp_error *err)
{
    /* Ranges first: views and observations name these in every phase, the end included. */
    if (s->capturer >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer: no clan %d", s->capturer);
    if (s->captured != RTW_NONE && s->captured >= RTW_FORTS)
        return rp_fail(err, RP_EINVAL, "captured: no fort %d", s->captured);
    if (s->phase == RTW_OVER)
        return check_over(s, err);
    int rc;
    if ((rc = check_going_on(s, err)) < 0 || s->phase == RTW_PLAN)
        return rc;
    if ((rc = check_revealed_up(s, err)) < 0 || (rc = check_phase_warrior(s, err)) < 0 ||
        (rc = check_capture(s, err)) < 0 || (rc = check_decider(s, err)) < 0)
        return rc;
    return check_choices(s, err);
}

/* The previous round's warriors: none in round 1, else six different ones per clan; rows of
 * clans not in the game are zero. */
static int check_prev(const rtw_state *s, rp_error *err)
{
    static const uint8_t zero[RTW_SLOTS];
    for (int c = 0; c < RTW_MAX_CLANS; c++) {
        if (c >= s->clans) {
            if (memcmp(s->slot[c], zero, RTW_SLOTS) != 0 ||
                memcmp(s->prev[c], zero, RTW_SLOTS) != 0)
                return rp_fail(err, RP_EINVAL, "clan %s is not in this game", clan_word[c]);
            continue;
        }
        uint16_t seen = 0;
        for (int i = 0; i < RTW_SLOTS; i++) {
            int k = s->prev[c][i];
            bool ok = s->round == 0 ? k == RTW_NONE : k < RTW_KINDS && !(seen & BIT(k));
            if (!ok)
                return rp_fail(err, RP_EINVAL, "%s: last round's slot %d: %s", clan_word[c], i + 1,
                               s->round == 0 ? "round 1 has no last round"
                                             : "six different warriors are needed");
            if (k < RTW_KINDS)
                seen |= BIT(k);
        }
    }
    return RP_OK;
}

int rtw_check(const rtw_state *s, rp_error *err)
{
    if (s->players < 1 || s->players > RTW_MAX_CLANS || s->neutrals > 2 ||
        s->clans != s->players + s->neutrals || s->clans < 2 || s->clans > RTW_MAX_CLANS)
        return rp_fail(err, RP_EINVAL,
                       "players/neutrals: 1..4 players, 0..2 neutrals, 2..4 clans (RW-1)");
    if (s->variant > 1)
        return rp_fail(err, RP_EINVAL, "variant: standard or vogel");
    if (!(s->rng.inc & 1))
        return rp_fail(err, RP_EINVAL, "rng: the stream must be odd");
    if (s->round >= RTW_ROUNDS || s->turn >= RTW_SLOTS || s->phase >= RTW_PHASES)
        return rp_fail(err, RP_EINVAL, "round, turn or phase out of range");
    if (s->capturer < -1 || s->winner < -1 || s->winner >= s->clans)
        return rp_fail(err, RP_EINVAL, "capturer or winner out of range");
    int rc;
    if ((rc = rtw_check_cards(&s->cards, "cards", err)) < 0 || (rc = check_forts(s, err)) < 0 ||
        (rc = check_wall(s, err)) < 0 || (rc = check_prev(s, err)) < 0)
        return rc;
    if (s->phase != RTW_OVER && s->actor >= s->players)
        return rp_fail(err, RP_EINVAL, "actor: %d is not a player clan", s->actor);
    for (int c = 0; c < s->clans; c++) /* before the phase checks, which read the slots */
        if ((rc = check_clan(s, c, err)) < 0)
            return rc;
    return check_phase(s, err);
}

int rtw_state_ok(const void *st, rp_error *err)
{
    return rtw_check(st, err);
}

/* ---- full-state notation (src/core/notation.h; the format: docs/games/rush-the-wall.md) ----
 * rw1 players=P neutrals=N variant=standard|vogel cards=default|S,../F,.. round=R turn=T
 *     phase=PH actor=CLAN|- next=SLOT|- capturer=CLAN|- captured=FORT|- keep=WARRIORS
 *     winner=CLAN|- deck=FORT,..(18) wall=FORT|-,..(6) gone=FORTS
 *     green=SLOTS/HAND/DRAWN/UP/FORTS/LAST red=... (one per clan) rng=<hex>.<hex>
 * Warriors are their move words (axx); forts their labels (dinary5), with a, b, c... after
 * the label where the card set has several alike (dinary1a, dinary1b), so each fort id has
 * one name. round, turn and next are 1-based. */

/* The notation's name of every fort id of a card set. */
typedef struct fort_names {
    char text[RTW_FORTS][16];
    const char *name[RTW_FORTS];
} fort_names;

static void name_forts(const rtw_cards *c, fort_names *fn)
{
    for (int f = 0; f < RTW_FORTS; f++) {
        int alike = 0, before = 0;
        for (int g = 0; g < RTW_FORTS; g++)
            if (same_fort(c, f, g)) {
                alike++;
                before += g < f;
            }
        int len = rtw_fort_label(c, f, fn->text[f], sizeof fn->text[f] - 1);
        if (alike > 1 && len > 0) {
            fn->text[f][len] = (char)('a' + before);
            fn->text[f][len + 1] = '\0';
        }
        fn->name[f] = fn->text[f];
    }
}

/* names[i], or "?" for an index out of range: the writer prints any bytes (the debug check
 * prints broken states) without reading past a table. */
static const char *name_or(const char *const *names, int count, int i)
{
    return i >= 0 && i < count ? names[i] : "?";
}

/* A set (a mask) as the names of its members, in order; '-' when empty. */
static void put_set(rp_text *t, const char *const *names, int count, uint32_t mask)
{
    int n = 0;
    for (; mask; mask &= mask - 1) {
        rp__put_sep(t, &n, ',');
        rp__text_str(t, name_or(names, count, lowest_bit(mask)));
    }
    rp__put_list_end(t, n);
}

/* n items, each a name or '-' (RTW_NONE). */
static void put_row(rp_text *t, const char *const *names, int count, const uint8_t *items, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            rp__text_ch(t, ',');
        rp__text_str(t, items[i] == RTW_NONE ? "-" : name_or(names, count, items[i]));
    }
}

/* " key=word", or " key=-" when index < 0. */
static void put_name(rp_text *t, const char *key, const char *const *names, int count, int index)
{
    rp__put_key(t, key);
    rp__text_str(t, index < 0 ? "-" : name_or(names, count, index));
}

static void put_number_field(rp_text *t, const char *key, uint64_t v)
{
    rp__put_key(t, key);
    rp__put_uint(t, v);
}

static void put_clan(rp_text *t, const rtw_state *s, const fort_names *fn, int c)
{
    rp__put_key(t, clan_word[c]);
    put_row(t, warrior_word, RTW_KINDS, s->slot[c], RTW_SLOTS);
    const uint32_t sets[4] = {s->hand[c], s->drawn[c], s->up[c], s->forts[c]};
    for (int i = 0; i < 4; i++) {
        rp__text_ch(t, '/');
        if (i == 3)
            put_set(t, fn->name, RTW_FORTS, sets[i]);
        else
            put_set(t, warrior_word, RTW_KINDS, sets[i]);
    }
    rp__text_ch(t, '/');
    if (s->round == 0)
        rp__text_ch(t, '-');
    else
        put_row(t, warrior_word, RTW_KINDS, s->prev[c], RTW_SLOTS);
}

int rtw_state_to_text(const void *st, char *buf, size_t size)
{
    static const char *const variants[] = {"standard", "vogel"};
    const rtw_state *s = st;
    fort_names fn;
    name_forts(&s->cards, &fn);
    bool placing = s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE;
    rp_text t;
    rp__text_init(&t, buf, size);
    rp__put_tag(&t, RTW_NOTATION_TAG);
    put_number_field(&t, "players", s->players);
    put_number_field(&t, "neutrals", s->neutrals);
    put_name(&t, "variant", variants, 2, s->variant);
    rp__put_key(&t, "cards");
    rtw_put_cards_value(&t, &s->cards);
    put_number_field(&t, "round", s->round + 1u);
    put_number_field(&t, "turn", s->turn + 1u);
    put_name(&t, "phase", phase_word, RTW_PHASES, s->phase);
    put_name(&t, "actor", clan_word, RTW_MAX_CLANS, s->phase == RTW_OVER ? -1 : s->actor);
    if (placing)
        put_number_field(&t, "next", s->next_slot + 1u);
    else
        put_name(&t, "next", NULL, 0, -1);
    put_name(&t, "capturer", clan_word, RTW_MAX_CLANS, s->capturer);
    put_name(&t, "captured", fn.name, RTW_FORTS, s->captured == RTW_NONE ? -1 : s->captured);
    rp__put_key(&t, "keep");
    put_set(&t, warrior_word, RTW_KINDS, s->keep);
    put_name(&t, "winner", clan_word, RTW_MAX_CLANS, s->winner);
    rp__put_key(&t, "deck");
    put_row(&t, fn.name, RTW_FORTS, s->deck, RTW_FORTS);
    rp__put_key(&t, "wall");
    put_row(&t, fn.name, RTW_FORTS, s->wall, RTW_SLOTS);
    rp__put_key(&t, "gone");
    put_set(&t, fn.name, RTW_FORTS, s->gone);
    for (int c = 0; c < s->clans && c < RTW_MAX_CLANS; c++)
        put_clan(&t, s, &fn, c);
    rp__put_rng(&t, &s->rng);
    return rp__text_finish(&t);
}

/* A set of names, each once ('-': none), into a mask. */
static int read_set(rp_reader *r, const char *what, rp_span v, const char *const *names, int n,
                    uint32_t *out)
{
    rp_list list;
    rp_span item;
    uint32_t mask = 0;
    rp__list_begin(&list, v, ',');
    while (rp__list_next(&list, &item)) {
        int k, rc = rp__span_choice(r, what, item, names, n, &k);
        if (rc < 0)
            return rc;
        if (mask & (1u << k))
            return rp__read_fail(r, what, "%s is listed twice", names[k]);
        mask |= 1u << k;
    }
    *out = mask;
    return RP_OK;
}

static int read_warriors(rp_reader *r, const char *what, rp_span v, uint16_t *out)
{
    uint32_t mask = 0;
    int rc = read_set(r, what, v, warrior_word, RTW_KINDS, &mask);
    *out = (uint16_t)mask;
    return rc;
}

/* Exactly n items, each one of names or '-' (RTW_NONE). */
static int read_row(rp_reader *r, const char *what, rp_span v, const char *const *names, int count,
                    uint8_t *items, int n)
{
    rp_list list;
    rp_span item;
    int i = 0;
    rp__list_begin(&list, v, ',');
    list.done = false; /* a lone '-' is one empty item here, not an empty list */
    while (rp__list_next(&list, &item)) {
        int k = -1;
        if (i == n)
            return rp__read_fail(r, what, "more than %d items", n);
        if (!rp__span_is(item, "-")) {
            int rc = rp__span_choice(r, what, item, names, count, &k);
            if (rc < 0)
                return rc;
        }
        items[i++] = k < 0 ? RTW_NONE : (uint8_t)k;
    }
    return i == n ? RP_OK : rp__read_fail(r, what, "%d items, expected %d", i, n);
}

/* The next field, one of names (or '-' as -1). */
static int read_name(rp_reader *r, const char *key, const char *const *names, int n, int *out)
{
    rp_span v;
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    if (rp__span_is(v, "-")) {
        *out = -1;
        return RP_OK;
    }
    return rp__span_choice(r, key, v, names, n, out);
}

/* The next field, a whole number in [min, max] (or '-' as 0 when dash is allowed). */
static int read_number(rp_reader *r, const char *key, uint64_t min, uint64_t max, bool dash,
                       uint8_t *out)
{
    rp_span v;
    uint64_t n = 0;
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    if (!(dash && rp__span_is(v, "-")) && (rc = rp__span_uint(r, key, v, min, max, &n)) < 0)
        return rc;
    *out = (uint8_t)n;
    return RP_OK;
}

/* SLOTS/HAND/DRAWN/UP/FORTS/LAST of clan c. */
static int read_clan(rp_reader *r, rtw_state *s, const fort_names *fn, int c)
{
    const char *key = clan_word[c];
    rp_span v, part[6];
    int rc = rp__read_field(r, key, &v);
    if (rc < 0)
        return rc;
    for (int i = 0; i < 5; i++)
        if (!rp__span_split(v, '/', &part[i], &v))
            return rp__read_fail(r, key, "expected SLOTS/HAND/DRAWN/UP/FORTS/LAST (six parts)");
    part[5] = v;
    memset(s->prev[c], RTW_NONE, RTW_SLOTS);
    if ((rc = read_row(r, key, part[0], warrior_word, RTW_KINDS, s->slot[c], RTW_SLOTS)) < 0 ||
        (rc = read_warriors(r, key, part[1], &s->hand[c])) < 0 ||
        (rc = read_warriors(r, key, part[2], &s->drawn[c])) < 0 ||
        (rc = read_warriors(r, key, part[3], &s->up[c])) < 0 ||
        (rc = read_set(r, key, part[4], fn->name, RTW_FORTS, &s->forts[c])) < 0)
        return rc;
    if (rp__span_is(part[5], "-"))
        return RP_OK;
    return read_row(r, key, part[5], warrior_word, RTW_KINDS, s->prev[c], RTW_SLOTS);
}

/* Everything up to the clans: options, progress, where the forts are. */
static int read_fields(rp_reader *r, rtw_state *s, fort_names *fn)
{
    static const char *const variants[] = {"standard", "vogel"};
    int variant, phase, actor, capturer, captured, winner, rc;
    rp_span v;
    if ((rc = read_number(r, "players", 1, RTW_MAX_CLANS, false, &s->players)) < 0 ||
        (rc = read_number(r, "neutrals", 0, 2, false, &s->neutrals)) < 0 ||
        (rc = read_name(r, "variant", variants, 2, &variant)) < 0 ||
        (rc = rp__read_field(r, "cards", &v)) < 0 ||
        (rc = rtw_read_cards_value(r, "cards", v, false, &s->cards)) < 0)
        return rc;
    name_forts(&s->cards, fn);
    if ((rc = read_number(r, "round", 1, RTW_ROUNDS, false, &s->round)) < 0 ||
        (rc = read_number(r, "turn", 1, RTW_SLOTS, false, &s->turn)) < 0 ||
        (rc = read_name(r, "phase", phase_word, RTW_PHASES, &phase)) < 0 ||
        (rc = read_name(r, "actor", clan_word, RTW_MAX_CLANS, &actor)) < 0 ||
        (rc = read_number(r, "next", 1, RTW_SLOTS, true, &s->next_slot)) < 0 ||
        (rc = read_name(r, "capturer", clan_word, RTW_MAX_CLANS, &capturer)) < 0 ||
        (rc = read_name(r, "captured", fn->name, RTW_FORTS, &captured)) < 0 ||
        (rc = rp__read_field(r, "keep", &v)) < 0 ||
        (rc = read_warriors(r, "keep", v, &s->keep)) < 0 ||
        (rc = read_name(r, "winner", clan_word, RTW_MAX_CLANS, &winner)) < 0 ||
        (rc = rp__read_field(r, "deck", &v)) < 0 ||
        (rc = read_row(r, "deck", v, fn->name, RTW_FORTS, s->deck, RTW_FORTS)) < 0 ||
        (rc = rp__read_field(r, "wall", &v)) < 0 ||
        (rc = read_row(r, "wall", v, fn->name, RTW_FORTS, s->wall, RTW_SLOTS)) < 0 ||
        (rc = rp__read_field(r, "gone", &v)) < 0 ||
        (rc = read_set(r, "gone", v, fn->name, RTW_FORTS, &s->gone)) < 0)
        return rc;
    s->clans = (uint8_t)(s->players + s->neutrals);
    s->variant = (uint8_t)variant;
    s->round--;
    s->turn--;
    s->next_slot = s->next_slot ? (uint8_t)(s->next_slot - 1) : 0;
    s->phase = (uint8_t)phase;
    s->actor = (uint8_t)(actor < 0 ? 0 : actor);
    s->capturer = (int8_t)capturer;
    s->captured = captured < 0 ? RTW_NONE : (uint8_t)captured;
    s->winner = (int8_t)winner;
    return RP_OK;
}

int rtw_state_from_text(void *st, const char *text, rp_error *err)
{
    rp_reader r;
    rtw_state s;
    fort_names fn;
    memset(&s, 0, sizeof s);
    int rc = rp__read_begin(&r, text, RTW_NOTATION_TAG, err);
    if (rc < 0 || (rc = read_fields(&r, &s, &fn)) < 0)
        return rc;
    if (s.clans < 2 || s.clans > RTW_MAX_CLANS)
        return rp__read_fail(&r, "neutrals", "players + neutrals must be 2..4 clans (RW-1)");
    for (int c = 0; c < s.clans; c++)
        if ((rc = read_clan(&r, &s, &fn, c)) < 0)
            return rc;
    if ((rc = rp__read_rng(&r, &s.rng)) < 0 || (rc = rp__read_end(&r)) < 0 ||
        (rc = rtw_check(&s, err)) < 0 || (rc = rp__read_canonical(&r, rtw_state_to_text, &s)) < 0)
        return rc;
    memcpy(st, &s, sizeof s);
    return RP_OK;
}
