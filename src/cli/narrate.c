/* narrate.c — what the interactive commands tell a viewer (a seat or the spectator): the
 * game's events for each action, one plain sentence a line, never the referee's notation of
 * an action the viewer could not see; and the one end-of-game line. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void rp_cli_narrate(const rp_match *m, size_t i, int viewer, FILE *out, char *over,
                    size_t over_size)
{
    char *text = rp_match_events(m, i, viewer, NULL);
    cJSON *events = text ? cJSON_Parse(text) : NULL;
    free(text);
    const cJSON *event;
    cJSON_ArrayForEach (event, events) {
        const cJSON *line = cJSON_GetObjectItemCaseSensitive(event, "text");
        const cJSON *kind = cJSON_GetObjectItemCaseSensitive(event, "kind");
        if (!cJSON_IsString(line) || !*line->valuestring)
            continue;
        const bool ending = cJSON_IsString(kind) && strcmp(kind->valuestring, "game-over") == 0;
        if (out && !ending) /* the one end-of-game line (rp_cli_result_line) says it */
            fprintf(out, "  %s\n", line->valuestring);
        if (over && ending)
            snprintf(over, over_size, "%s", line->valuestring);
    }
    cJSON_Delete(events);
}

/* "Red", "Red and Blue", "Red, Blue and Green": the seats of a mask. */
static void seat_list(const rp_game *game, uint32_t seats, FILE *out)
{
    int count = 0, told = 0;
    for (uint32_t rest = seats; rest; rest &= rest - 1)
        count++;
    for (int p = 0; p < RP_MAX_PLAYERS; p++)
        if (seats & 1u << p) {
            told++;
            fprintf(out, "%s%s",
                    told == 1       ? ""
                    : told == count ? " and "
                                    : ", ",
                    rp_seat_name(game, p));
        }
}

/* Who shares the win: "Red wins.", "Red and Blue share the win.", "Red and Blue share a
 * draw." */
static void winners_line(const rp_match *m, FILE *out)
{
    const rp_game *game = rp_match_game(m);
    const int players = rp_match_players(m);
    double r[RP_MAX_PLAYERS];
    rp_match_returns(m, r);
    uint32_t winners = 0;
    int count = 0;
    for (int p = 0; p < players; p++)
        if (r[p] > 0) {
            winners |= 1u << p;
            count++;
        }
    if (count == 0) { /* every seat lost an ending: a solo resignation, a double forfeit */
        fprintf(out, "Nobody wins.\n");
        return;
    }
    seat_list(game, winners, out);
    fprintf(out, count == 1         ? " wins.\n"
                 : count == players ? " share a draw.\n"
                                    : " share the win.\n");
}

/* The line of an ending other than the rules': what happened, then who won. */
static void ending_line(const rp_match *m, FILE *out)
{
    const rp_game *game = rp_match_game(m);
    const uint32_t losers = rp_match_losers(m);
    const rp_end reason = rp_match_end_reason(m);
    if (reason == RP_END_RESIGNED) {
        int seat = 0;
        while (!(losers & 1u << seat))
            seat++;
        if (rp_match_players(m) == 2)
            fprintf(out, "%s resigns: %s wins.\n", rp_seat_name(game, seat),
                    rp_seat_name(game, 1 - seat));
        else if (losers == (1u << rp_match_players(m)) - 1)
            fprintf(out, "%s resigns: nobody wins.\n", rp_seat_name(game, seat));
        else
            fprintf(out, "%s resigns: the game ends and the others share the win.\n",
                    rp_seat_name(game, seat));
        return;
    }
    static const char *const what[RP_NUM_ENDS] = {[RP_END_TIME] = " ran out of time",
                                                  [RP_END_ABANDONED] = " left the game",
                                                  [RP_END_AGREED] = "The players agreed a draw",
                                                  [RP_END_ADJUDICATED] = "The game was adjudicated",
                                                  [RP_END_DECIDED] = "The game was decided"};
    if (reason == RP_END_TIME || reason == RP_END_ABANDONED)
        seat_list(game, losers, out);
    fprintf(out, "%s: ", what[reason]);
    winners_line(m, out);
}

void rp_cli_result_line(const rp_match *m, const char *over_text, FILE *out)
{
    if (rp_match_end_reason(m) != RP_END_NONE) {
        ending_line(m, out);
        return;
    }
    if (over_text && *over_text) {
        const bool said = strncmp(over_text, "Game over", 9) == 0;
        char line[RP_ERROR_TEXT + 16];
        snprintf(line, sizeof line, "%s%s\n", said ? "" : "Game over. ", over_text);
        rp_cli_write_wrapped(out, line, rp_cli_width(out));
        return;
    }
    fprintf(out, "Game over. ");
    winners_line(m, out);
}

void rp_cli_over_text(const rp_match *m, int viewer, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t i = rp_match_length(m); i-- > 0;)
        if (rp_match_entry(m, i).kind == RP_ENTRY_MOVE) {
            rp_cli_narrate(m, i, viewer, NULL, buf, size);
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
static void narrate_wrapped(const rp_match *m, size_t i, int viewer, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        rp_cli_narrate(m, i, viewer, out, NULL, 0);
        return;
    }
    rp_cli_narrate(m, i, viewer, mem, NULL, 0);
    if (fclose(mem) == 0)
        rp_cli_write_wrapped(out, text, rp_cli_width(out));
    free(text);
}

/* What a re-sample replaced: "Red could not see", or "neither Red nor Green could see",
 * "none of Red, Green and Blue could see" (two or more humans with an AI). */
static void tell_resampled_seats(const rp_game *game, const rp_entry_info *e, FILE *out)
{
    if (!e->seats) {
        fprintf(out, "%s could not see", rp_seat_name(game, e->seat));
        return;
    }
    const int count = __builtin_popcount(e->seats);
    fprintf(out, "%s", count == 2 ? "neither " : "none of ");
    if (count == 2) {
        int first = 0;
        while (!(e->seats & 1u << first))
            first++;
        fprintf(out, "%s nor ", rp_seat_name(game, first));
        seat_list(game, e->seats & ~(1u << first), out);
    } else {
        seat_list(game, e->seats, out);
    }
    fprintf(out, " could see");
}

void rp_cli_show_entry(const rp_match *m, size_t i, int viewer, bool color, FILE *out)
{
    const rp_game *game = rp_match_game(m);
    const rp_entry_info e = rp_match_entry(m, i);
    const char *bold = color ? "\033[1m" : "", *plain = color ? "\033[0m" : "";
    switch (e.kind) {
    case RP_ENTRY_MOVE:
        fprintf(out, "%s-- Move %zu: %s --%s\n", bold, e.move, rp_seat_name(game, e.seat), plain);
        narrate_wrapped(m, i, viewer, out);
        break;
    case RP_ENTRY_UNDO:
        fprintf(out, "%s-- %s took back %llu move%s --%s\n", bold, rp_seat_name(game, e.seat),
                (unsigned long long)e.count, e.count == 1 ? "" : "s", plain);
        break;
    case RP_ENTRY_RESAMPLE:
        fprintf(out, "%s-- everything ", bold);
        tell_resampled_seats(game, &e, out);
        fprintf(out, " was shuffled again --%s\n", plain);
        break;
    case RP_ENTRY_END:
        if (e.reason == RP_END_RESIGNED) {
            fprintf(out, "%s-- %s resigns --%s\n", bold, rp_seat_name(game, e.seat), plain);
        } else {
            fprintf(out, "%s-- the game ends: %s%s", bold, rp_end_word(e.reason),
                    e.seats ? " (" : "");
            seat_list(game, e.seats, out);
            fprintf(out, "%s --%s\n", e.seats ? ")" : "", plain);
        }
        return;
    }
    fprintf(out, "\n");
    rp_cli_render(m, i + 1, viewer, color, rp_cli_width(out), out);
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

void rp_cli_render(const rp_match *m, size_t i, int viewer, bool color, int width, FILE *out)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        rp_match_render_at(m, i, viewer, color, out);
        return;
    }
    rp_match_render_at(m, i, viewer, color, mem);
    if (fclose(mem) != 0) {
        free(text);
        rp_match_render_at(m, i, viewer, color, out);
        return;
    }
    const bool over = i >= rp_match_length(m) && rp_match_over(m);
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
