/* ramparts/json.h — the games' JSON hooks, for callers that build on cJSON (the library itself,
 * the Python module, the tools): what a viewer may know, what an action is and what it did, as
 * cJSON trees. ramparts/game.h gives the same as JSON text and needs no JSON library; include
 * this header, and link cJSON, only to work on the trees. */
#ifndef RAMPARTS_JSON_H
#define RAMPARTS_JSON_H

#include <cjson/cJSON.h>

#include "ramparts/game.h"

/* One game's hooks (rp_game.json). Each returns a new tree the caller frees with cJSON_Delete,
 * or NULL when memory runs out. */
struct rp_game_json {
    /* What `viewer` (a seat, or RP_SPECTATOR) may know, as a JSON object the caller frees
     * with cJSON_Delete. Plain data a client renders without parsing text: lists are arrays,
     * cards are their names, hidden cards are null or counted. */
    cJSON *(*view)(const void *st, int viewer);

    /* An action as data, so a client builds click-to-move input from the legal list without
     * re-implementing any notation: {"kind": "archers", ...its parts as plain data: "cards",
     * "wall", "from", "to", "target", "face"...}. rp_action_cjson adds "id" and "text". */
    cJSON *(*action)(const void *st, rp_action action);

    /* What `action` (legal in `before`) did, told to `viewer` (a seat or RP_SPECTATOR): a new
     * JSON array of the events in order, from the action itself through every consequence it
     * set off (flips, reveals, captures, draws, reshuffles, scoring, the end of the game),
     * up to the next decision. The game applies the action to its own copy of `before`. Each
     * event is an object with
     *   "kind"   a word for what happened ("play", "draw", "flip", "reveal", "capture",
     *            "wall-falls", "turn", "game-over"...; each game lists its kinds in
     *            docs/rules/<game>.md),
     *   "text"   one plain-English sentence for that viewer, e.g. "Blue flips 9H onto Red's
     *            wall 3 (7C): 9 beats 7, the wall falls.",
     *   "seat"   the seat it concerns, when one does,
     *   "reveal" true when some player learns through it something that was hidden or not yet
     *            decided by chance (a card drawn or flipped, a warrior turned up, a shuffle);
     *            set in every viewer's copy of the event,
     * plus the parts a client needs, as plain data ("cards": names the viewer may see,
     * "wall", "from", "to", "values", "count"...). An event never names anything the viewer
     * may not see: a card drawn is named to its owner and counted for everyone else. Two
     * states the viewer cannot tell apart, an action the viewer observes the same way and
     * views afterwards the viewer cannot tell apart give identical events. */
    cJSON *(*events)(const void *before, rp_action action, int viewer);
};

/* The calls of game.h that give JSON as text, as trees (the caller frees each with
 * cJSON_Delete): rp_view_text, rp_events_json, rp_action_json, rp_legal_json. */
RP_EXTERN cJSON *rp_view_cjson(const rp_game *game, const void *st, int player);
RP_EXTERN cJSON *rp_events_cjson(const rp_game *game, const void *before, rp_action action,
                                 int viewer, rp_error *err);
RP_EXTERN cJSON *rp_action_cjson(const rp_game *game, const void *st, rp_action action);
RP_EXTERN cJSON *rp_legal_cjson(const rp_game *game, const void *st);

#endif
