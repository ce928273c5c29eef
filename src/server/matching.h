/* matching.h — a maximum matching in a general (not bipartite) graph, Edmonds' blossom
 * algorithm, for the tournament pairings (tournament.c): who may meet whom is the graph, and a
 * pairing is a matching. Pure, no I/O. A leaf of layers.h. */
#ifndef RS_MATCHING_H
#define RS_MATCHING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The graph as a bit matrix (n up to a few thousand: 1,000 vertices take 125 KiB), the
 * vertices still in play ("alive"), and a matching among them. */
typedef struct rs_matching rs_matching;

/* NULL when out of memory (or n past 2^20). Every vertex starts alive, with no edges and
 * unmatched. */
rs_matching *rs_matching_new(size_t n);
void rs_matching_free(rs_matching *m);

void rs_matching_edge(rs_matching *m, size_t a, size_t b, bool present);
bool rs_matching_has_edge(const rs_matching *m, size_t a, size_t b);
/* The partner of v, or -1. */
long rs_matching_mate(const rs_matching *m, size_t v);
/* Join a and b (both alive and unmatched, with an edge between them): a starting matching. */
void rs_matching_join(rs_matching *m, size_t a, size_t b);

/* Grows the matching among the alive vertices to a maximum one (an augmenting path from each
 * unmatched vertex in turn: Berge's theorem says none left means maximum). Returns the number
 * of alive vertices left unmatched. */
size_t rs_matching_maximize(rs_matching *m);

/* Takes a and b out of play as a pair (joined, so rs_matching_mate reads them), if the rest
 * can still be matched as fully as before. The matching must be maximum on entry
 * (rs_matching_maximize) and stays so: true means some maximum matching holds a-b, and the
 * rest keeps its share of it; false changes nothing. This is the pairing's look-ahead: the greedy choice of the best opponent
 * never leaves players who can no longer be paired. */
bool rs_matching_take_pair(rs_matching *m, size_t a, size_t b);
/* Takes v out of play alone (a bye), on the same terms: true when the other alive vertices
 * keep a matching as large as the one they have with v matched; false changes nothing. */
bool rs_matching_take_single(rs_matching *m, size_t v);

#endif
