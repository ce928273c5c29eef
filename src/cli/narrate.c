/* narrate.c — what the interactive commands tell a viewer (a seat or the spectator): the
 * game's events for each action, one plain sentence a line, never the referee's notation of
 * an action the viewer could not see; and the one end-of-game line. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The viewer sees exactly which action was taken (the fallback for games without events). */
static bool action_visible(const rp_game *game, const void *before, rp_action action, int viewer)
{
    if (viewer == game->current_player(before) || !(game->flags & RP_HIDDEN_INFO))
        return true;
    if (!game->observe_action)
        return true;
    return game->observe_action(before, action, viewer) == action;
}

static void narrate_fallback(const rp_game *game, const void *before, rp_action action, int viewer,
                             FILE *out)
{
    const int actor = game->current_player(before);
    char text[RP_ACTION_TEXT];
    if (action_visible(game, before, action, viewer) &&
        game->action_to_text(before, action, text, sizeof text) >= 0)
        fprintf(out, "  %s plays %s.\n", rp_seat_name(game, actor), text);
    else
        fprintf(out, "  %s makes a move you cannot see.\n", rp_seat_name(game, actor));
}

void rp_cli_narrate(const rp_game *game, const void *before, rp_action action, int viewer,
                    FILE *out, char *over, size_t over_size)
{
    cJSON *events = game->events_json ? rp_events(game, before, action, viewer, NULL) : NULL;
    if (!events) {
        if (out)
            narrate_fallback(game, before, action, viewer, out);
        return;
    }
    const cJSON *event;
    cJSON_ArrayForEach (event, events) {
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(event, "text");
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
        if (!cJSON_IsString(text) || !*text->valuestring)
            continue;
        const bool ending = cJSON_IsString(kind) && strcmp(kind->valuestring, "game-over") == 0;
        if (out && !ending) /* the one end-of-game line (rp_cli_result_line) says it */
            fprintf(out, "  %s\n", text->valuestring);
        if (over && ending)
            snprintf(over, over_size, "%s", text->valuestring);
    }
    cJSON_Delete(events);
}

void rp_cli_result_line(const rp_match *m, const char *over_text, FILE *out)
{
    const rp_game *game = m->game;
    const int players = game->num_players(&m->state);
    if (m->resigned >= 0) {
        if (players == 2)
            fprintf(out, "%s resigns: %s wins.\n", rp_seat_name(game, m->resigned),
                    rp_seat_name(game, 1 - m->resigned));
        else
            fprintf(out, "%s resigns: the game ends and the others share the win.\n",
                    rp_seat_name(game, m->resigned));
        return;
    }
    if (over_text && *over_text) {
        const bool said = strncmp(over_text, "Game over", 9) == 0;
        char line[RP_ERROR_TEXT + 16];
        snprintf(line, sizeof line, "%s%s\n", said ? "" : "Game over. ", over_text);
        rp_cli_write_wrapped(out, line, rp_cli_width(out));
        return;
    }
    double r[RP_MAX_PLAYERS];
    rp_match_returns(m, r);
    fprintf(out, "Game over.");
    int winners = 0;
    for (int p = 0; p < players; p++)
        winners += r[p] > 0;
    for (int p = 0, named = 0; p < players; p++)
        if (r[p] > 0)
            fprintf(out, "%s%s", named++ ? (named == winners ? " and " : ", ") : " ",
                    rp_seat_name(game, p));
    fprintf(out, winners == 1         ? " wins.\n"
                 : winners == players ? " share a draw.\n"
                                      : " share the win.\n");
}

void rp_cli_over_text(const rp_match *m, int viewer, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = m->length; i-- > 0;) {
        if (m->history[i].kind != RP_ENTRY_MOVE)
            continue;
        rp_state before;
        rp_match_state_at(m, i, &before);
        rp_cli_narrate(m->game, &before, m->history[i].action, viewer, NULL, buf, size);
        return;
    }
}

int rp_cli_viewer(const char *command, const rp_game *game, int players, const char *text)
{
    if (strcmp(text, "spectator") == 0)
        return RP_SPECTATOR;
    char *end;
    long seat = strtol(text, &end, 10);
    if (end != text && !*end && seat >= 0 && seat < players)
        return (int)seat;
    rp_cli_usage_error(command, "'%s': a viewer is a seat from 0 to %d or 'spectator' (%s)", text,
                       players - 1, game->id);
    return -3;
}

/* rp_cli_narrate to out, its long lines broken at words to out's width. */
static void narrate_wrapped(const rp_game *game, const void *before, rp_action action, int viewer,
                            FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        rp_cli_narrate(game, before, action, viewer, out, NULL, 0);
        return;
    }
    rp_cli_narrate(game, before, action, viewer, mem, NULL, 0);
    if (fclose(mem) == 0)
        rp_cli_write_wrapped(out, text, rp_cli_width(out));
    free(text);
}

/* What a re-sample replaced: "Red could not see", or "neither Red nor Green could see",
 * "none of Red, Green and Blue could see" (two or more humans with an AI). */
static void tell_resampled_seats(const rp_game *game, const rp_entry *e, FILE *out)
{
    if (!e->seats) {
        fprintf(out, "%s could not see", rp_seat_name(game, e->seat));
        return;
    }
    const int count = __builtin_popcount(e->seats);
    const char *last_join = count == 2 ? " nor " : " and ";
    fprintf(out, "%s", count == 2 ? "neither " : "none of ");
    for (int p = 0, told = 0; p < RP_MAX_PLAYERS; p++) {
        if (!(e->seats & 1u << p))
            continue;
        told++;
        fprintf(out, "%s%s",
                told == 1       ? ""
                : told == count ? last_join
                                : ", ",
                rp_seat_name(game, p));
    }
    fprintf(out, " could see");
}

void rp_cli_show_entry(const rp_match *m, size_t i, size_t move_number, int viewer, bool color,
                       FILE *out)
{
    const rp_game *game = m->game;
    const rp_entry *e = &m->history[i];
    const char *bold = color ? "\033[1m" : "", *plain = color ? "\033[0m" : "";
    rp_state st;
    rp_match_state_at(m, i, &st);
    switch (e->kind) {
    case RP_ENTRY_MOVE:
        fprintf(out, "%s-- Move %zu: %s --%s\n", bold, move_number, rp_seat_name(game, e->seat),
                plain);
        narrate_wrapped(game, &st, e->action, viewer, out);
        break;
    case RP_ENTRY_UNDO:
        fprintf(out, "%s-- %s took back %llu move%s --%s\n", bold, rp_seat_name(game, e->seat),
                (unsigned long long)e->value, e->value == 1 ? "" : "s", plain);
        break;
    case RP_ENTRY_RESAMPLE:
        fprintf(out, "%s-- everything ", bold);
        tell_resampled_seats(game, e, out);
        fprintf(out, " was shuffled again --%s\n", plain);
        break;
    case RP_ENTRY_RESIGN:
        fprintf(out, "%s-- %s resigns --%s\n", bold, rp_seat_name(game, e->seat), plain);
        return;
    }
    rp_match_state_at(m, i + 1, &st);
    fprintf(out, "\n");
    rp_cli_render(game, &st, viewer, color, rp_cli_width(out), out);
}

/* The line starts with "Game over" once blanks and colour codes are skipped. */
static bool says_game_over(const char *line, size_t len)
{
    size_t i = 0;
    while (i < len && (line[i] == ' ' || line[i] == '\033')) {
        if (line[i] == '\033')
            while (i < len && line[i] != 'm')
                i++;
        i++;
    }
    return len - (i < len ? i : len) >= 9 && strncmp(line + i, "Game over", 9) == 0;
}

void rp_cli_render(const rp_game *game, const void *st, int viewer, bool color, int width,
                   FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        game->render(st, viewer, out, color);
        return;
    }
    game->render(st, viewer, mem, color);
    if (fclose(mem) != 0) {
        free(text);
        game->render(st, viewer, out, color);
        return;
    }
    const bool over = game->current_player(st) == RP_TERMINAL;
    char *kept = text; /* the lines kept, moved down in place */
    size_t at = 0;
    for (const char *line = text; *line;) {
        const size_t n = strcspn(line, "\n");
        if (!over || !says_game_over(line, n)) {
            memmove(kept + at, line, n);
            at += n;
            kept[at++] = '\n';
        }
        line += n + (line[n] != '\0');
    }
    kept[at] = '\0';
    rp_cli_write_wrapped(out, kept, width);
    free(text);
}
