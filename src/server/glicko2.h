/* glicko2.h — Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), as a
 * pure function: no storage, no clock. The server applies one update per finished rated game,
 * in the transaction that stores the result. */
#ifndef RS_GLICKO2_H
#define RS_GLICKO2_H

#define RS_GLICKO2_DEFAULT_RATING 1500.0
#define RS_GLICKO2_DEFAULT_RD 350.0
#define RS_GLICKO2_DEFAULT_VOL 0.06
#define RS_GLICKO2_TAU 0.5 /* constrains the volatility change; Glickman suggests 0.3..1.2 */

typedef struct rs_rating {
    double rating; /* Glicko scale, 1500 for a new player */
    double rd;     /* rating deviation, at most 350 */
    double vol;    /* volatility sigma */
} rs_rating;

typedef struct rs_glicko2_game {
    rs_rating opponent; /* the opponent's rating before the period */
    double score;       /* 1 win, 0.5 draw, 0 loss */
} rs_glicko2_game;

/* A new player's rating: 1500 / 350 / 0.06. */
rs_rating rs_glicko2_default(void);

/* The player's rating after one rating period with `n` games (n may be 0: the deviation
 * grows, the rating stays). `tau` is the system constant. */
rs_rating rs_glicko2_update(rs_rating player, const rs_glicko2_game *games, int n, double tau);

#endif
