/* view.h — internal: the common start of every game's view_json, so that every view names its
 * game in one place and the same way ("game": the rp_game's id, the first field). */
#ifndef RP_CORE_VIEW_H
#define RP_CORE_VIEW_H

struct cJSON;

/* A new view object {"game": game_id} for the game to fill (NULL only when memory runs out).
 * game_id is the game's constant id (its rp_game's .id, the same macro): kept by reference. */
struct cJSON *rp__view_new(const char *game_id);

#endif
