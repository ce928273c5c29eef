/* view.c — what Rush the Wall shows each viewer: actions as data, the view as JSON, the
 * secret names, the events an action set off, the terminal rendering and the card values
 * in use (describe). */
#include "games/rush-the-wall/internal.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/events.h"
#include "core/notation.h"
#include "core/view.h"

/* ---- actions as data ---- */

static void put_string(cJSON *o, const char *key, const char *text)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateString(text));
}

static void put_number(cJSON *o, const char *key, double value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNumber(value));
}

static void put_fort(cJSON *o, const char *key, const rtw_cards *c, int f)
{
    char label[32];
    if (f == RTW_NONE) {
        cJSON_AddItemToObjectCS(o, key, cJSON_CreateNull());
        return;
    }
    rtw_fort_label(c, f, label, sizeof label);
    put_string(o, key, label);
}

/* An action as data: {"kind": "place", "warrior": "axx", "slot": 3}, "charm" with "clan" and
 * the "warrior" charmed, "take" with "position" and "fort", "discard" with "warrior" and
 * "reason" (signal or horsie), "pay" with "fort", "keep"/"drop" with "warrior": "axx". */
cJSON *rtw_action_json(const void *st, rp_action action)
{
    const rtw_state *s = st;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (action <= RTW_A_HIDDEN) {
        put_string(o, "kind", "place");
        if (action == RTW_A_HIDDEN)
            cJSON_AddItemToObjectCS(o, "warrior", cJSON_CreateNull());
        else
            put_string(o, "warrior", warrior_word[action]);
        put_number(o, "slot", s->next_slot + 1);
    } else if (action < RTW_A_TAKE) {
        int c = (int)(action - RTW_A_CHARM);
        put_string(o, "kind", "charm");
        put_string(o, "clan", clan_word[c]);
        if (c < s->clans)
            put_string(o, "warrior", warrior_word[revealed(s, c)]);
    } else if (action < RTW_A_DISCARD) {
        int pos = (int)(action - RTW_A_TAKE);
        put_string(o, "kind", "take");
        put_number(o, "position", pos + 1);
        put_fort(o, "fort", &s->cards, s->wall[pos]);
    } else if (action < RTW_A_PAY) {
        put_string(o, "kind", "discard");
        put_string(o, "warrior", warrior_word[action - RTW_A_DISCARD]);
        put_string(o, "reason", s->phase == RTW_HORSIE_PICK ? "horsie" : "signal");
    } else if (action < RTW_A_KEEP_AXX) {
        put_string(o, "kind", "pay");
        put_fort(o, "fort", &s->cards, (int)(action - RTW_A_PAY));
    } else {
        put_string(o, "kind", action == RTW_A_KEEP_AXX ? "keep" : "drop");
        put_string(o, "warrior", "axx");
    }
    return o;
}

/* ---- views: plain data for one viewer (a seat, or RP_SPECTATOR) ---- */

static bool sees_own(int viewer, int clan)
{
    return viewer >= 0 && viewer == clan;
}

/* Keys are literals and many values static words, added by reference (no copies). */
static void put_word(cJSON *o, const char *key, const char *word)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateStringReference(word));
}

static void put_bool(cJSON *o, const char *key, bool value)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateBool(value));
}

static void put_null(cJSON *o, const char *key)
{
    cJSON_AddItemToObjectCS(o, key, cJSON_CreateNull());
}

static void put_clan_or_null(cJSON *o, const char *key, int clan)
{
    if (clan >= 0)
        put_word(o, key, clan_word[clan]);
    else
        put_null(o, key);
}

static cJSON *warrior_array(uint32_t mask)
{
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1)
        cJSON_AddItemToArray(a, cJSON_CreateStringReference(warrior_word[lowest_bit(mask)]));
    return a;
}

static void put_warriors(cJSON *o, const char *key, uint32_t mask)
{
    cJSON_AddItemToObjectCS(o, key, warrior_array(mask));
}

static cJSON *fort_array(const rtw_cards *c, uint32_t mask)
{
    char label[32];
    cJSON *a = cJSON_CreateArray();
    for (; mask; mask &= mask - 1) {
        rtw_fort_label(c, lowest_bit(mask), label, sizeof label);
        cJSON_AddItemToArray(a, cJSON_CreateString(label));
    }
    return a;
}

static void put_forts(cJSON *o, const char *key, const rtw_cards *c, uint32_t mask)
{
    cJSON_AddItemToObjectCS(o, key, fort_array(c, mask));
}

/* The card set, flagged as assumptions (RW-2, RW-3): strengths keyed by warrior (keys, so the
 * table never shows a warrior as if it were placed somewhere), and the 18 forts. */
static cJSON *cards_json(const rtw_cards *c)
{
    cJSON *cards = cJSON_CreateObject(), *strengths = cJSON_CreateObject();
    put_bool(cards, "assumed", true);
    for (int k = 0; k < RTW_KINDS; k++)
        put_number(strengths, warrior_word[k], c->strength[k]);
    cJSON_AddItemToObjectCS(cards, "strengths", strengths);
    put_forts(cards, "forts", c, ALL_FORTS);
    return cards;
}

/* A clan's placed slots, left to right: its warrior where the viewer may see it (turned up,
 * or the viewer's own), null where it lies hidden. Empty slots are not listed. */
static cJSON *slots_json(const rtw_state *s, int c, int viewer)
{
    cJSON *a = cJSON_CreateArray();
    int shown = shown_slots(s);
    for (int i = 0; i < RTW_SLOTS && s->slot[c][i] != RTW_NONE; i++) {
        if (i < shown || sees_own(viewer, c))
            cJSON_AddItemToArray(a, cJSON_CreateStringReference(warrior_word[s->slot[c][i]]));
        else
            cJSON_AddItemToArray(a, cJSON_CreateNull());
    }
    return a;
}

static cJSON *clan_json(const rtw_state *s, int c, int viewer)
{
    cJSON *o = cJSON_CreateObject();
    put_word(o, "clan", clan_word[c]);
    if (is_player(s, c))
        put_number(o, "seat", c);
    else
        put_null(o, "seat");
    put_bool(o, "neutral", !is_player(s, c));
    put_forts(o, "forts", &s->cards, s->forts[c]);
    put_number(o, "points", fort_total(s, c));
    put_warriors(o, "face_up", s->up[c]);
    cJSON_AddItemToObjectCS(o, "slots", slots_json(s, c, viewer));
    put_number(o, "revealed", shown_slots(s));
    if (sees_own(viewer, c)) {
        put_warriors(o, "hand", s->hand[c]);
        put_warriors(o, "drawn", s->drawn[c]);
    }
    put_number(o, "hand_size", popcount(s->hand[c]));
    cJSON *last = cJSON_CreateArray();
    for (int i = 0; s->round > 0 && i < RTW_SLOTS; i++)
        cJSON_AddItemToArray(last, cJSON_CreateStringReference(warrior_word[s->prev[c][i]]));
    cJSON_AddItemToObjectCS(o, "last_round", last);
    return o;
}

cJSON *rtw_view_json(const void *st, int viewer)
{
    const rtw_state *s = st;
    bool over = s->phase == RTW_OVER;
    cJSON *v = rp__view_new(RTW_ID);
    put_word(v, "viewer", viewer >= 0 && viewer < s->players ? clan_word[viewer] : "spectator");
    if (viewer >= 0)
        put_number(v, "seat", viewer);
    else
        put_null(v, "seat");
    put_word(v, "variant", s->variant ? "vogel" : "standard");
    put_number(v, "players", s->players);
    put_number(v, "neutrals", s->neutrals);
    put_number(v, "round", s->round + 1);
    put_number(v, "turn", s->turn + 1);
    put_word(v, "phase", phase_word[s->phase]);
    put_clan_or_null(v, "to_act", over ? -1 : s->actor);
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        put_number(v, "next_slot", s->next_slot + 1);
    else
        put_null(v, "next_slot");
    cJSON_AddItemToObjectCS(v, "cards", cards_json(&s->cards));
    cJSON *wall = cJSON_CreateArray();
    char label[32];
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] == RTW_NONE) {
            cJSON_AddItemToArray(wall, cJSON_CreateNull());
            continue;
        }
        rtw_fort_label(&s->cards, s->wall[i], label, sizeof label);
        cJSON_AddItemToArray(wall, cJSON_CreateString(label));
    }
    cJSON_AddItemToObjectCS(v, "wall", wall);
    if (s->phase == RTW_PLAN || over)
        put_null(v, "current");
    else
        put_number(v, "current", s->turn + 1);
    put_number(v, "forts_left", RTW_FORTS - RTW_SLOTS * (s->round + 1));
    put_forts(v, "discarded_forts", &s->cards, s->gone);
    put_clan_or_null(v, "capturer", s->capturer);
    put_fort(v, "captured", &s->cards, s->captured);
    put_warriors(v, "kept", s->keep);
    cJSON *clans = cJSON_CreateArray();
    for (int c = 0; c < s->clans; c++)
        cJSON_AddItemToArray(clans, clan_json(s, c, viewer));
    cJSON_AddItemToObjectCS(v, "clans", clans);
    put_bool(v, "over", over);
    if (over) {
        cJSON *win = cJSON_CreateArray();
        for (uint32_t m = rtw_winners(s); m; m &= m - 1)
            cJSON_AddItemToArray(win, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
        cJSON_AddItemToObjectCS(v, "winners", win);
        put_bool(v, "legion_win", s->winner >= 0);
    }
    return v;
}

/* The warriors `viewer` sees named somewhere in their view: turned-up slots and last round's
 * of every clan, face-up and kept ones, and everything of their own clan. */
static uint16_t warriors_seen(const rtw_state *s, int viewer)
{
    uint16_t seen = s->keep;
    int shown = shown_slots(s);
    for (int c = 0; c < s->clans; c++) {
        seen |= s->up[c];
        for (int i = 0; i < RTW_SLOTS; i++) {
            if (s->round > 0)
                seen |= BIT(s->prev[c][i]);
            if (s->slot[c][i] != RTW_NONE && (i < shown || sees_own(viewer, c)))
                seen |= BIT(s->slot[c][i]);
        }
        if (sees_own(viewer, c))
            seen |= (uint16_t)(s->hand[c] | s->drawn[c]);
    }
    return seen;
}

/* Warriors hidden from `viewer` (other clans' face-down slots, hands and drawn sevens) that
 * their view names nowhere. Forts are never secret: the card set is public and every fort
 * drawn is face up; only the order of the undrawn ones is hidden. */
int rtw_secret_names(const void *st, int viewer, char *buf, size_t size)
{
    const rtw_state *s = st;
    uint16_t hidden = 0;
    for (int c = 0; c < s->clans; c++)
        if (!sees_own(viewer, c))
            hidden |= s->drawn[c];
    hidden &= (uint16_t)~warriors_seen(s, viewer);
    rp_text t;
    rp__text_init(&t, buf, size);
    for (int n = 0; hidden; hidden &= (uint16_t)(hidden - 1)) {
        rp__put_sep(&t, &n, ' ');
        rp__text_str(&t, warrior_word[lowest_bit(hidden)]);
    }
    return rp__text_finish(&t);
}

/* ---- events: the notes of one action, told to one viewer; first the teller, and how it
 * words clans, cards and forts ---- */

typedef struct teller {
    const rtw_state *s; /* the state after the action (for the card set and the final score) */
    int viewer;
    cJSON *events;
} teller;

static const char *const kind_word[] = {[N_PLACE] = "place",
                                        [N_LAST_PLACE] = "place",
                                        [N_SET_ASIDE] = "set-aside",
                                        [N_ATTACK] = "attack",
                                        [N_REVEAL] = "reveal",
                                        [N_WRECK] = "wreck",
                                        [N_QWEENS_CANCEL] = "qween",
                                        [N_QWEEN_NEUTRAL] = "qween",
                                        [N_QWEEN_ALONE] = "qween",
                                        [N_CHARM] = "charm",
                                        [N_TOTALS] = "totals",
                                        [N_CAPTURE] = "capture",
                                        [N_NO_CAPTURE] = "no-capture",
                                        [N_TAKE] = "druhid",
                                        [N_UNWARY] = "unwary",
                                        [N_SIGNAL_FORT] = "signal",
                                        [N_SIGNAL] = "signal",
                                        [N_TAX] = "tax",
                                        [N_LEGION] = "legion",
                                        [N_AXX] = "axx",
                                        [N_DISCARD] = "discard",
                                        [N_HORSIE] = "horsie",
                                        [N_ZVORD] = "zvord",
                                        [N_ROUND_END] = "round-end",
                                        [N_ROUND] = "round",
                                        [N_DRAW] = "draw",
                                        [N_NEUTRAL_PLAN] = "neutral-plan",
                                        [N_GAME_OVER] = "game-over",
                                        [N_TO_ACT] = "turn"};

/* One event about note n's clan (its seat when it is a player clan), with "clan" added. */
static cJSON *event(teller *tl, const rtw_note *n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static cJSON *event(teller *tl, const rtw_note *n, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    int seat = is_player(tl->s, n->clan) ? n->clan : -1;
    cJSON *e = rp__event(tl->events, kind_word[n->kind], seat, "%s", text);
    if (e && n->clan >= 0)
        put_word(e, "clan", clan_word[n->clan]);
    return e;
}

/* "cards": the warriors of mask, which the viewer may see. */
static void event_cards(cJSON *e, uint32_t mask)
{
    if (e)
        cJSON_AddItemToObjectCS(e, "cards", warrior_array(mask));
}

static void event_fort(cJSON *e, const char *key, const rtw_cards *c, int f)
{
    if (e && f != RTW_NONE)
        put_fort(e, key, c, f);
}

/* Clan names joined for a sentence: "Green", "Green and Red", "Green, Red and Gold". */
static void clan_list(rp_text *t, uint32_t mask)
{
    int total = popcount(mask), i = 0;
    for (; mask; mask &= mask - 1, i++) {
        rp__text_str(t, i == 0 ? "" : i == total - 1 ? " and " : ", ");
        rp__text_str(t, clan_name[lowest_bit(mask)]);
    }
}

/* "Green (neutral)" for neutral clans, "Green" for player clans. */
static const char *who(const rtw_state *s, int c, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s", clan_name[c], is_player(s, c) ? "" : " (neutral)");
    return buf;
}

/* ---- events of planning ---- */

static void tell_draw(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *e;
    if (sees_own(tl->viewer, n->clan)) {
        rtw_list_warriors(&t, tl->s, n->mask);
        e = event(tl, n, "%s shuffles its nine warriors and draws seven: %s.", clan_name[n->clan],
                  text);
        event_cards(e, n->mask);
    } else {
        e = event(tl, n, "%s shuffles its nine warriors and draws seven.", clan_name[n->clan]);
    }
    rp__event_reveal(e);
}

static void tell_place(teller *tl, const rtw_note *n)
{
    char w[32];
    bool own = sees_own(tl->viewer, n->clan);
    rtw_warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e;
    if (n->kind == N_LAST_PLACE)
        e = own ? event(tl, n, "%s's last hidden warrior, %s, goes face down to slot %d.",
                        clan_name[n->clan], w, n->pos + 1)
                : event(tl, n, "%s's last hidden warrior goes face down to slot %d.",
                        clan_name[n->clan], n->pos + 1);
    else
        e = own ? event(tl, n, "%s places %s face down at slot %d%s.", clan_name[n->clan], w,
                        n->pos + 1, n->flag ? " (placing again after Zvord)" : "")
                : event(tl, n, "%s places a warrior face down at slot %d%s.", clan_name[n->clan],
                        n->pos + 1, n->flag ? " (placing again after Zvord)" : "");
    if (e)
        put_number(e, "slot", n->pos + 1);
    if (own)
        event_cards(e, BIT(n->warrior));
}

static void tell_set_aside(teller *tl, const rtw_note *n)
{
    char w[32];
    if (!sees_own(tl->viewer, n->clan)) {
        event(tl, n, "%s has placed six warriors and sets its seventh aside.", clan_name[n->clan]);
        return;
    }
    rtw_warrior_text(tl->s, n->warrior, w, sizeof w);
    event_cards(
        event(tl, n, "%s has placed six warriors and sets %s aside.", clan_name[n->clan], w),
        BIT(n->warrior));
}

static void tell_neutral_plan(teller *tl, const rtw_note *n)
{
    char c[32];
    event(tl, n, "%s lays six of its warriors face down at random.",
          who(tl->s, n->clan, c, sizeof c));
}

/* ---- events of a turn: the attack, the reveal, the Qween, the totals ---- */

static void tell_attack(teller *tl, const rtw_note *n)
{
    char f[48];
    rtw_fort_text(&tl->s->cards, n->fort, f, sizeof f);
    cJSON *e = event(tl, n, "Round %d, turn %d: the clans attack %s at position %d.", n->round + 1,
                     n->turn + 1, f, n->pos + 1);
    event_fort(e, "fort", &tl->s->cards, n->fort);
    if (e)
        put_number(e, "position", n->pos + 1);
}

static void tell_reveal(teller *tl, const rtw_note *n)
{
    char w[32], c[32];
    rtw_warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e =
        event(tl, n, "%s turns up %s at slot %d.", who(tl->s, n->clan, c, sizeof c), w, n->pos + 1);
    rp__event_reveal(e);
    event_cards(e, BIT(n->warrior));
    if (e)
        put_number(e, "slot", n->pos + 1);
}

static void tell_qween(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *e;
    switch (n->kind) {
    case N_WRECK:
        clan_list(&t, n->mask);
        e = event(tl, n, "%s's Ch'ariotts collide: all are discarded before points are counted.",
                  text);
        event_cards(e, BIT(RTW_CHARIOTT));
        return;
    case N_QWEENS_CANCEL:
        clan_list(&t, n->mask);
        e = event(tl, n,
                  "%s revealed Qweens: their powers cancel and each counts her own strength.",
                  text);
        break;
    case N_QWEEN_NEUTRAL:
        e = event(tl, n,
                  "%s's Qween has no power, %s being a neutral clan (RW-11): she counts "
                  "her own strength.",
                  clan_name[n->clan], clan_name[n->clan]);
        break;
    default:
        e = event(tl, n, "%s's Qween finds no rival warrior to charm and counts her own strength.",
                  clan_name[n->clan]);
        break;
    }
    event_cards(e, BIT(RTW_QWEEN));
}

static void tell_charm(teller *tl, const rtw_note *n)
{
    char w[32];
    rtw_warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e = event(tl, n,
                     "%s's Qween charms %s's %s: she counts %d for %s and it counts 0 "
                     "for %s this turn.",
                     clan_name[n->clan], clan_name[n->other], w, tl->s->cards.strength[n->warrior],
                     clan_name[n->clan], clan_name[n->other]);
    event_cards(e, BIT(RTW_QWEEN) | BIT(n->warrior));
    if (e)
        put_word(e, "target", clan_word[n->other]);
}

static void tell_totals(teller *tl, const rtw_note *n)
{
    char text[256];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *totals = cJSON_CreateObject();
    for (int c = 0; c < tl->s->clans; c++) {
        rp__text_put(&t, "%s%s %d%s", c ? ", " : "", clan_name[c], n->value[c],
                     n->mask & BIT(c) ? " (Filchy: cannot capture)" : "");
        put_number(totals, clan_word[c], n->value[c]);
    }
    cJSON *e = event(tl, n, "Totals: %s.", text);
    if (!e) {
        cJSON_Delete(totals);
        return;
    }
    cJSON_AddItemToObjectCS(e, "totals", totals);
    cJSON *out = cJSON_CreateArray();
    for (uint32_t m = n->mask; m; m &= m - 1)
        cJSON_AddItemToArray(out, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
    cJSON_AddItemToObjectCS(e, "filchy", out);
}

/* ---- events of a capture and of the warriors' and forts' effects ---- */

static void tell_capture(teller *tl, const rtw_note *n)
{
    char f[48], tied[96];
    rtw_fort_text(&tl->s->cards, n->fort, f, sizeof f);
    rp_text t;
    rp__text_init(&t, tied, sizeof tied);
    clan_list(&t, n->mask);
    cJSON *e;
    if (n->mask)
        e = event(tl, n,
                  "%s tie at %d; %s revealed an Arch'r this turn and wins the tie: %s captures %s.",
                  tied, n->value[0], clan_name[n->clan], clan_name[n->clan], f);
    else
        e = event(tl, n, "%s has the highest total, %d, and captures %s.", clan_name[n->clan],
                  n->value[0], f);
    event_fort(e, "fort", &tl->s->cards, n->fort);
}

static void tell_no_capture(teller *tl, const rtw_note *n)
{
    char f[48], f2[48], why[128];
    const rtw_cards *c = &tl->s->cards;
    rtw_fort_text(c, n->fort, f, sizeof f);
    rtw_fort_text(c, n->fort2, f2, sizeof f2);
    rp_text t;
    rp__text_init(&t, why, sizeof why);
    if (!n->mask) {
        rp__text_str(&t, "Every clan revealed Filchy: nobody can capture");
    } else {
        clan_list(&t, n->mask);
        rp__text_put(&t, " tie at %d", n->value[0]);
        rp__text_str(&t, n->pos > 1 ? " and more than one of them revealed an Arch'r: the tie "
                                      "remains, nobody captures"
                                    : ": nobody captures");
    }
    cJSON *e;
    if (!n->flag)
        e = event(tl, n, "%s; %s is discarded and every warrior stays face up.", why, f);
    else if (n->turn == RTW_SLOTS - 1)
        e = event(tl, n, "%s; %s, the last fort of The Wall, is discarded (Vogel variant).", why,
                  f);
    else
        e = event(tl, n,
                  "%s; %s stays in The Wall for the next turn, %s at the right end is "
                  "discarded and the forts between slide one place right (Vogel variant).",
                  why, f, f2);
    event_fort(e, "fort", c, n->fort);
    if (e && n->flag && n->turn < RTW_SLOTS - 1)
        put_fort(e, "discarded", c, n->fort2);
}

static void tell_take(teller *tl, const rtw_note *n)
{
    char f[48], f2[48];
    const rtw_cards *c = &tl->s->cards;
    rtw_fort_text(c, n->fort, f, sizeof f);
    rtw_fort_text(c, n->fort2, f2, sizeof f2);
    cJSON *e;
    if (n->fort == n->fort2)
        e = event(tl, n, "%s's Dru'hid keeps %s, the fort fought over.", clan_name[n->clan], f);
    else if (n->flag)
        e = event(tl, n,
                  "%s's Dru'hid takes %s from position %d instead; the forts to its left "
                  "slide one place right (Vogel variant).",
                  clan_name[n->clan], f, n->pos + 1);
    else
        e = event(tl, n, "%s's Dru'hid takes %s from position %d instead; %s takes its place.",
                  clan_name[n->clan], f, n->pos + 1, f2);
    event_fort(e, "fort", c, n->fort);
    if (e)
        put_number(e, "position", n->pos + 1);
}

/* Unwary, Signal, Horsie and Axx: one warrior kept or discarded. */
static void tell_warrior_effect(teller *tl, const rtw_note *n)
{
    char w[32], c[32];
    const char *name = who(tl->s, n->clan, c, sizeof c);
    if (n->warrior != RTW_NONE)
        rtw_warrior_text(tl->s, n->warrior, w, sizeof w);
    cJSON *e = NULL;
    switch (n->kind) {
    case N_UNWARY:
        if (n->warrior == RTW_NONE)
            e = event(tl, n, "Unwary Fort: %s has no face-up warrior to keep.", name);
        else
            e = event(tl, n, "Unwary Fort: %s keeps its weakest face-up warrior, %s.", name, w);
        break;
    case N_SIGNAL:
        e = event(tl, n, "Signal Fort: %s discards %s.", name, w);
        break;
    case N_AXX:
        e = event(tl, n,
                  n->flag ? "%s keeps its Axx face up."
                          : "%s drops its Axx with the other face-up warriors.",
                  name);
        event_cards(e, BIT(RTW_AXX));
        return;
    default: /* N_HORSIE */
        if (n->warrior == RTW_NONE)
            e = event(tl, n,
                      "%s's Horsie lost the turn, but %s has no face-up warrior left to "
                      "discard (RW-20).",
                      name, clan_name[n->clan]);
        else if (n->warrior == RTW_HORSIE)
            e = event(tl, n,
                      "%s's Horsie lost the turn and no other warrior is face up: she "
                      "discards herself, %s.",
                      name, w);
        else
            e = event(tl, n, "%s's Horsie lost the turn: %s discards %s.", name, clan_name[n->clan],
                      w);
        break;
    }
    if (n->warrior != RTW_NONE)
        event_cards(e, BIT(n->warrior));
}

static void tell_discard(teller *tl, const rtw_note *n)
{
    char gone[160], kept[96], c[32];
    rp_text t;
    rp__text_init(&t, gone, sizeof gone);
    rtw_list_warriors(&t, tl->s, n->mask);
    rp__text_init(&t, kept, sizeof kept);
    rtw_list_warriors(&t, tl->s, n->mask2);
    const char *name = who(tl->s, n->clan, c, sizeof c);
    cJSON *e;
    if (!n->mask)
        e = event(tl, n, "%s keeps %s face up; no other warrior to discard.", name, kept);
    else if (n->mask2)
        e = event(tl, n, "%s discards its face-up warriors (%s) and keeps %s.", name, gone, kept);
    else
        e = event(tl, n, "%s discards its face-up warriors: %s.", name, gone);
    event_cards(e, (uint32_t)n->mask | n->mask2);
}

static void tell_tax(teller *tl, const rtw_note *n)
{
    char f[48];
    rtw_fort_text(&tl->s->cards, n->fort, f, sizeof f);
    cJSON *e = n->fort == n->fort2
                   ? event(tl, n,
                           "Tax-Collector's Fort: %s holds no other fort and discards "
                           "the Tax-Collector's Fort itself.",
                           clan_name[n->clan])
                   : event(tl, n, "Tax-Collector's Fort: %s pays %s.", clan_name[n->clan], f);
    event_fort(e, "fort", &tl->s->cards, n->fort);
}

static void tell_signal_fort(teller *tl, const rtw_note *n)
{
    event(tl, n, "Signal Fort: every clan with a face-up warrior discards one, %s first.",
          clan_name[n->clan]);
}

static void tell_legion(teller *tl, const rtw_note *n)
{
    char c[32];
    event(tl, n,
          n->flag ? "%s holds three Legion forts, but a neutral clan cannot win; "
                    "play goes on (RW-18)."
                  : "%s holds three Legion forts and wins at once (RW-18).",
          who(tl->s, n->clan, c, sizeof c));
}

static void tell_zvord(teller *tl, const rtw_note *n)
{
    event(tl, n, "%s's Zvord: %s takes back its %d hidden warriors to place them again.",
          clan_name[n->clan], clan_name[n->clan], n->pos);
}

/* ---- events of rounds, the game's end and who acts next ---- */

static void tell_round(teller *tl, const rtw_note *n)
{
    char text[256], f[48];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *wall = cJSON_CreateArray();
    char label[32];
    for (int i = 0; i < RTW_SLOTS; i++) {
        rtw_fort_text(&tl->s->cards, n->wall[i], f, sizeof f);
        rp__text_put(&t, "%s%s", i ? ", " : "", f);
        rtw_fort_label(&tl->s->cards, n->wall[i], label, sizeof label);
        cJSON_AddItemToArray(wall, cJSON_CreateString(label));
    }
    cJSON *e = event(tl, n, "Round %d: six forts are drawn; The Wall, left to right, is %s.",
                     n->round + 1, text);
    rp__event_reveal(e);
    if (e)
        cJSON_AddItemToObjectCS(e, "wall", wall);
    else
        cJSON_Delete(wall);
}

static void tell_round_end(teller *tl, const rtw_note *n)
{
    char text[160];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    cJSON *points = cJSON_CreateObject();
    for (int c = 0; c < tl->s->clans; c++) {
        rp__text_put(&t, "%s%s %d", c ? ", " : "", clan_name[c], n->value[c]);
        put_number(points, clan_word[c], n->value[c]);
    }
    cJSON *e = event(tl, n, "Round %d ends: every warrior returns to its clan. Fort points: %s.",
                     n->round + 1, text);
    if (e)
        cJSON_AddItemToObjectCS(e, "points", points);
    else
        cJSON_Delete(points);
}

/* RW-12, RTW-P6 in one sentence: who won, and the numbers that decided it. */
static void score_sentence(const rtw_state *s, rp_text *t)
{
    uint32_t win = rtw_winners(s);
    int w = lowest_bit(win), runner = -1;
    if (s->winner >= 0) {
        rp__text_put(t, "%s captured a third Legion fort and wins at once (RW-18)", clan_name[w]);
        return;
    }
    if (popcount(win) > 1) {
        clan_list(t, win);
        rp__text_put(t, " share the win: %d points, %d forts and a highest fort of %d each",
                     fort_total(s, w), popcount(s->forts[w]), highest_fort(s, w));
        return;
    }
    for (int c = 0; c < s->players; c++)
        if (c != w && (runner < 0 || rtw_compare_clans(s, c, runner) > 0))
            runner = c;
    if (runner < 0) {
        rp__text_put(t, "%s finishes with %d points (neutral clans cannot win)", clan_name[w],
                     fort_total(s, w));
        return;
    }
    int tw = fort_total(s, w), tr = fort_total(s, runner);
    int nw = popcount(s->forts[w]), nr = popcount(s->forts[runner]);
    if (tw != tr)
        rp__text_put(t, "%s wins with %d points to %s's %d", clan_name[w], tw, clan_name[runner],
                     tr);
    else if (nw != nr)
        rp__text_put(t, "%s and %s tie at %d points; %s wins the tie on forts, %d to %d",
                     clan_name[w], clan_name[runner], tw, clan_name[w], nw, nr);
    else
        rp__text_put(t,
                     "%s and %s tie at %d points and %d forts; %s wins on the highest fort, "
                     "%d to %d",
                     clan_name[w], clan_name[runner], tw, nw, clan_name[w], highest_fort(s, w),
                     highest_fort(s, runner));
}

static void tell_game_over(teller *tl, const rtw_note *n)
{
    char text[256];
    rp_text t;
    rp__text_init(&t, text, sizeof text);
    score_sentence(tl->s, &t);
    cJSON *e = event(tl, n, "Game over: %s.", text);
    if (!e)
        return;
    cJSON *win = cJSON_CreateArray(), *points = cJSON_CreateObject();
    for (uint32_t m = rtw_winners(tl->s); m; m &= m - 1)
        cJSON_AddItemToArray(win, cJSON_CreateStringReference(clan_word[lowest_bit(m)]));
    for (int c = 0; c < tl->s->clans; c++)
        put_number(points, clan_word[c], fort_total(tl->s, c));
    cJSON_AddItemToObjectCS(e, "winners", win);
    cJSON_AddItemToObjectCS(e, "points", points);
    put_word(e, "reason", tl->s->winner >= 0 ? "legions" : "rounds");
}

/* Who decides next, and what. */
static void tell_to_act(teller *tl, const rtw_note *n)
{
    const rtw_state *s = tl->s;
    static const char *const what[RTW_PHASES] = {"place six warriors face down",
                                                 "place its hidden warriors again (Zvord)",
                                                 "pick the rival warrior its Qween charms",
                                                 "pick the fort its Dru'hid takes",
                                                 "discard a face-up warrior (Signal Fort)",
                                                 "pay one of its forts (Tax-Collector's)",
                                                 "keep its Axx face up or drop it",
                                                 "discard a face-up warrior (Horsie)",
                                                 ""};
    cJSON *e = event(tl, n, "%s to act: %s.", clan_name[n->clan], what[s->phase]);
    if (e)
        put_word(e, "phase", phase_word[s->phase]);
}

/* ---- events: telling the notes ---- */

typedef void (*note_teller)(teller *tl, const rtw_note *n);

/* How each kind of note is told. */
static const note_teller tell_kind[] = {[N_PLACE] = tell_place,
                                        [N_LAST_PLACE] = tell_place,
                                        [N_SET_ASIDE] = tell_set_aside,
                                        [N_ATTACK] = tell_attack,
                                        [N_REVEAL] = tell_reveal,
                                        [N_WRECK] = tell_qween,
                                        [N_QWEENS_CANCEL] = tell_qween,
                                        [N_QWEEN_NEUTRAL] = tell_qween,
                                        [N_QWEEN_ALONE] = tell_qween,
                                        [N_CHARM] = tell_charm,
                                        [N_TOTALS] = tell_totals,
                                        [N_CAPTURE] = tell_capture,
                                        [N_NO_CAPTURE] = tell_no_capture,
                                        [N_TAKE] = tell_take,
                                        [N_UNWARY] = tell_warrior_effect,
                                        [N_SIGNAL_FORT] = tell_signal_fort,
                                        [N_SIGNAL] = tell_warrior_effect,
                                        [N_TAX] = tell_tax,
                                        [N_LEGION] = tell_legion,
                                        [N_AXX] = tell_warrior_effect,
                                        [N_DISCARD] = tell_discard,
                                        [N_HORSIE] = tell_warrior_effect,
                                        [N_ZVORD] = tell_zvord,
                                        [N_ROUND_END] = tell_round_end,
                                        [N_ROUND] = tell_round,
                                        [N_DRAW] = tell_draw,
                                        [N_NEUTRAL_PLAN] = tell_neutral_plan,
                                        [N_GAME_OVER] = tell_game_over,
                                        [N_TO_ACT] = tell_to_act};
_Static_assert(sizeof tell_kind / sizeof tell_kind[0] == N_TO_ACT + 1,
               "every kind of note has its teller");

/* Tell one note to the viewer (every kind has its teller, so none is NULL). */
static void tell_note(teller *tl, const rtw_note *n)
{
    tell_kind[n->kind](tl, n);
}

/* The action was one placement among several by the same clan: nothing else to say. */
static bool same_decision(const rtw_state *before, const rtw_state *after)
{
    return after->phase == before->phase && after->actor == before->actor &&
           after->round == before->round && after->turn == before->turn &&
           (after->phase == RTW_PLAN || after->phase == RTW_ZVORD_PLACE);
}

cJSON *rtw_events_json(const void *before, rp_action action, int viewer)
{
    rtw_state s = *(const rtw_state *)before;
    rtw_tell *t = malloc(sizeof *t);
    cJSON *events = cJSON_CreateArray();
    if (!t || !events) {
        free(t);
        cJSON_Delete(events);
        return NULL;
    }
    t->n = 0;
    rtw_play_told(&s, t, action);
    if (s.phase != RTW_OVER && !same_decision(before, &s))
        rtw_new_note(t, &s, N_TO_ACT, s.actor);
    teller tl = {&s, viewer, events};
    for (int i = 0; i < t->n; i++)
        tell_note(&tl, &t->note[i]);
    free(t);
    return events;
}

/* ---- terminal rendering: what view_json shows, for people ---- */

static void fort_text_of(const rtw_state *s, int f, char *buf, size_t size)
{
    rtw_fort_text(&s->cards, f, buf, size);
}

static const char *const clan_color[RTW_MAX_CLANS] = {"\033[32m", "\033[31m", "\033[33m",
                                                      "\033[34m"};

/* The items of mask for people, or "none". */
static void render_items(const rtw_state *s, uint32_t mask, item_namer name, FILE *out)
{
    char buf[512];
    rp_text t;
    rp__text_init(&t, buf, sizeof buf);
    rtw_list_items(&t, s, mask, name);
    fputs(buf, out);
}

static void render_forts(const rtw_state *s, uint32_t mask, FILE *out)
{
    render_items(s, mask, fort_text_of, out);
}

static void render_warriors(const rtw_state *s, uint32_t mask, FILE *out)
{
    render_items(s, mask, rtw_warrior_text, out);
}

/* What the clan to act must decide, in words. */
static void render_prompt(const rtw_state *s, int viewer, FILE *out)
{
    static const char *const what[RTW_PHASES] = {
        "place a warrior face down (the seventh is set aside)",
        "place the hidden warriors again (Zvord)",
        "pick the rival warrior the Qween charms",
        "pick the fort the Dru'hid takes",
        "discard a face-up warrior (Signal Fort)",
        "pay one of the forts held (Tax-Collector's Fort)",
        "keep the Axx face up, or drop it",
        "discard a face-up warrior (Horsie)",
        ""};
    if (s->phase == RTW_OVER) {
        char text[256];
        rp_text t;
        rp__text_init(&t, text, sizeof text);
        score_sentence(s, &t);
        fprintf(out, "Game over: %s.\n", text);
        return;
    }
    fprintf(out, "%s to act: %s", sees_own(viewer, s->actor) ? "You are" : clan_name[s->actor],
            what[s->phase]);
    if (s->phase == RTW_PLAN || s->phase == RTW_ZVORD_PLACE)
        fprintf(out, " in slot %d", s->next_slot + 1);
    fputs(".\n", out);
}

static void render_clan(const rtw_state *s, int c, int viewer, FILE *out, bool color)
{
    const char *reset = color ? "\033[0m" : "";
    fprintf(out, "%s%-6s%s%s  forts: ", color ? clan_color[c] : "", clan_name[c], reset,
            !is_player(s, c)      ? " (neutral)"
            : sees_own(viewer, c) ? " (you)    "
                                  : "          ");
    render_forts(s, s->forts[c], out);
    fprintf(out, " = %d points\n        face up: ", fort_total(s, c));
    render_warriors(s, s->up[c], out);
    fputs("\n        slots:", out);
    int shown = shown_slots(s);
    for (int i = 0; i < RTW_SLOTS; i++) {
        int k = s->slot[c][i];
        if (k == RTW_NONE)
            fputs("  .", out);
        else if (i < shown)
            fprintf(out, "  [%s]", warrior_name[k]);
        else
            fprintf(out, "  %s", sees_own(viewer, c) ? warrior_name[k] : "?");
    }
    if (s->round > 0) {
        fputs("\n        last round:", out);
        for (int i = 0; i < RTW_SLOTS; i++)
            fprintf(out, " %s", warrior_name[s->prev[c][i]]);
    }
    fputc('\n', out);
}

void rtw_render(const void *st, int viewer, FILE *out, bool color)
{
    const rtw_state *s = st;
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    char buf[48];
    fprintf(out, "%sRush the Wall%s  round %d/3, turn %d/6%s", bold, reset, s->round + 1,
            s->turn + 1, s->variant ? "  (Vogel variant)" : "");
    if (viewer >= 0 && viewer < s->players)
        fprintf(out, "  you are %s%s%s", color ? clan_color[viewer] : "", clan_name[viewer], reset);
    else
        fputs("  (spectator)", out);
    fputs("\nCard values are assumptions (RW-2, RW-3): `ramparts rules rush-the-wall` lists "
          "them.\nThe Wall:",
          out);
    for (int i = 0; i < RTW_SLOTS; i++) {
        if (s->wall[i] == RTW_NONE) {
            fprintf(out, "  %d:--", i + 1);
            continue;
        }
        rtw_fort_text(&s->cards, s->wall[i], buf, sizeof buf);
        bool current = i == s->turn && s->phase != RTW_PLAN;
        fprintf(out, "  %d:%s%s%s", i + 1, current ? "[" : "", buf, current ? "]" : "");
    }
    fprintf(out, "\nForts left to draw: %d; discarded: ", RTW_FORTS - RTW_SLOTS * (s->round + 1));
    render_forts(s, s->gone, out);
    fputc('\n', out);
    for (int c = 0; c < s->clans; c++)
        render_clan(s, c, viewer, out, color);
    if (s->capturer >= 0 && s->captured != RTW_NONE && s->phase != RTW_PLAN) {
        rtw_fort_text(&s->cards, s->captured, buf, sizeof buf);
        fprintf(out, "This turn %s captured %s.\n", clan_name[s->capturer], buf);
    }
    /* The viewer's own hand, on every turn (its view holds it too): an information state
     * built from screens must tell two deals of this hand apart even off its turn. */
    if (viewer >= 0 && viewer < s->players && s->hand[viewer] && s->phase != RTW_OVER) {
        fputs("Your hand: ", out);
        render_warriors(s, s->hand[viewer], out);
        fputc('\n', out);
    }
    render_prompt(s, viewer, out);
}

/* The card values in use (defaults or a cards= set), for `ramparts rules rush-the-wall`: the
 * rulebook gives only Arch'r's strength, so every number here is an assumption (RW-2, RW-3)
 * that a user may replace. */
void rtw_describe(const void *st, FILE *out)
{
    const rtw_state *s = st;
    char buf[48];
    fputs("Card values in use (assumptions: the rulebook gives only Arch'r 5; RW-2, RW-3):\n"
          "  Warriors: ",
          out);
    render_warriors(s, ALL_WARRIORS, out);
    fputs("\n  Forts:", out);
    for (int f = 0; f < RTW_FORTS; f++) {
        rtw_fort_text(&s->cards, f, buf, sizeof buf);
        fprintf(out, "%s %s", f ? "," : "", buf);
    }
    char value[RP_OPTION_TEXT];
    rtw_cards_to_value(&s->cards, value, sizeof value);
    fprintf(out, "\n  As an option: cards=%s\n", value);
}
