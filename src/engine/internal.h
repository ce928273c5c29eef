/* internal.h — what the engine's files share and front ends do not see. */
#ifndef RP_ENGINE_INTERNAL_H
#define RP_ENGINE_INTERNAL_H

#include "ramparts/engine.h"

/* Append one history entry read from a record: a move (checked like rp_match_play), an undo
 * note, a re-sample (applied) or a resignation. Refused with the reason, m unchanged. */
int rp__match_append(rp_match *m, const rp_entry *e, rp_error *err);

#endif
