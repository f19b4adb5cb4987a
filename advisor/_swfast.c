/* The Senior Wrangler solver's beam search, in C.
 *
 * advisor/senior_wrangler_solver.py holds the reference (pure Python) version of every
 * function here and the reasons behind them; this file is a line-for-line port of the
 * beam search (_beam, _session_playout, _score, _finish_last and the dead-end cuts it
 * uses: the quick kings test, rank_block and order_cycle), because the search is only
 * as good as the number of play-outs it can afford in a second and Python gives about
 * one fiftieth of C's. Only the random numbers differ. The build is optional: without a
 * C compiler the solver runs the Python version (tests compare the two on many positions).
 *
 * Ranks are 1..13 (13 = king); a column is an array of ranks, index 0 furthest from the
 * player, the last one on top. A pile j holds prog[j] cards and next needs need[j][prog[j]]
 * (0 once finished).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#define NCOL 8
#define PILE_LEN 12
#define SESSIONS 8
#define KING 13
#define TOTAL (NCOL * PILE_LEN)
#define MAXC 112              /* a column holds at most the 96 column cards (room for 16-byte copies) */
#define MAXMV 128             /* 96 plays and 7 redeals at most */

typedef struct {
    uint8_t col[NCOL][MAXC];
    uint8_t len[NCOL];
    uint8_t prog[NCOL];
    int nmv;
    int8_t mv[MAXMV][2];      /* (column, pile); (-1, -1) for a redeal */
} Pos;

typedef struct {
    uint8_t need[NCOL][PILE_LEN + 1];      /* need[j][p], need[j][12] = 0 */
    int8_t place[NCOL][14];                /* where rank r goes on pile j, -1 for none */
    uint16_t pre[NCOL][PILE_LEN + 1];      /* ranks of slots 0..q-1 of pile j, as bits */
} Ctx;

static int frozen(int c, int session)
{
    return c < session - 1 || c == NCOL - 1 || session == SESSIONS;
}

static int played_of(const Pos *p)
{
    int n = 0;
    for (int j = 0; j < NCOL; j++)
        n += p->prog[j];
    return n;
}

static void ctx_init(Ctx *x, const uint8_t *keys)
{
    for (int j = 0; j < NCOL; j++) {
        int k = keys[j];
        uint16_t m = 0;
        for (int r = 0; r < 14; r++)
            x->place[j][r] = -1;
        for (int n = 0; n < PILE_LEN; n++) {
            int r = ((n + 2) * k - 1) % 13 + 1;
            x->need[j][n] = (uint8_t)r;
            x->place[j][r] = (int8_t)n;
            x->pre[j][n] = m;
            m |= (uint16_t)(1u << r);
        }
        x->need[j][PILE_LEN] = 0;
        x->pre[j][PILE_LEN] = m;
    }
}

/* ------------------------------------------------------------------ clock and random */

typedef struct {
    clockid_t id;
    double end;
    int group;          /* searches run side by side share a group: the first win stops them all (-1: none) */
} Clock;

/* the group whose search has won; read by the others of that group at each clock check */
static int won_group = -1;

static double clock_now(const Clock *k)
{
    struct timespec ts;
    clock_gettime(k->id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int out_of_time(const Clock *k)
{
    if (k->group >= 0 && __atomic_load_n(&won_group, __ATOMIC_RELAXED) == k->group)
        return 1;
    return clock_now(k) > k->end;
}

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: small, fast and good enough for play-out noise */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* ------------------------------------------------------------------ play-out (_session_playout) */

static void playout(const Ctx *x, Pos *p, int s, uint64_t *rng, double noise, double hold)
{
    int held[NCOL] = {0};
    uint8_t wl[15][NCOL];     /* piles needing rank r next, in pile order */
    int wn[15] = {0};
    int top[NCOL];
    for (int j = 0; j < NCOL; j++)
        if (p->prog[j] < PILE_LEN) {
            int r = x->need[j][p->prog[j]];
            wl[r][wn[r]++] = (uint8_t)j;
        }
    for (int c = 0; c < NCOL; c++)
        top[c] = p->len[c] ? p->col[c][p->len[c] - 1] : 0;
    for (;;) {
        int cc[NCOL * NCOL], cj[NCOL * NCOL], n = 0;
        for (int c = 0; c < NCOL; c++) {
            int t = top[c];
            if (!t || held[c])
                continue;
            for (int k = 0; k < wn[t]; k++) {
                cc[n] = c;
                cj[n] = wl[t][k];
                n++;
            }
        }
        if (!n)
            return;
        int c, j;
        if (n == 1) {
            c = cc[0];
            j = cj[0];
        } else {
            int bi = 0;
            double bs = -1e9;
            for (int i = 0; i < n; i++) {
                int ci = cc[i], ji = cj[i];
                int t = top[ci];
                double sc = rng_unit(rng) * noise;
                int nxt = x->need[ji][p->prog[ji] + 1];
                if (p->len[ci] > 1) {
                    int u = p->col[ci][p->len[ci] - 2];
                    if (u == nxt || (wn[u] && (u != t || wn[u] > 1)))
                        sc += 2;
                }
                if (frozen(ci, s))
                    sc += 1;
                if (nxt) {
                    int cnt = 0;
                    for (int d = 0; d < NCOL; d++)
                        cnt += top[d] == nxt;
                    if (cnt > (t == nxt))
                        sc += 1;
                }
                if (sc > bs) {
                    bs = sc;
                    bi = i;
                }
            }
            c = cc[bi];
            j = cj[bi];
        }
        if (hold > 0.0 && rng_unit(rng) < hold) {
            held[c] = 1;        /* declined: the card and its column stay as they are this session */
            continue;
        }
        int t = p->col[c][--p->len[c]];
        top[c] = p->len[c] ? p->col[c][p->len[c] - 1] : 0;
        int q = ++p->prog[j];
        for (int k = 0; k < wn[t]; k++)
            if (wl[t][k] == j) {
                memmove(&wl[t][k], &wl[t][k + 1], (size_t)(wn[t] - k - 1));
                wn[t]--;
                break;
            }
        if (q < PILE_LEN) {
            int r = x->need[j][q];
            int k = wn[r]++;
            while (k > 0 && wl[r][k - 1] > j) {     /* keep pile order */
                wl[r][k] = wl[r][k - 1];
                k--;
            }
            wl[r][k] = (uint8_t)j;
        }
        p->mv[p->nmv][0] = (int8_t)c;
        p->mv[p->nmv][1] = (int8_t)j;
        p->nmv++;
    }
}

/* the redeal ending session s: column s is dealt across the tops from column 1 */
static void redeal(Pos *p, int s)
{
    uint8_t picked[MAXC];
    int n = p->len[s - 1];
    memcpy(picked, p->col[s - 1], (size_t)n);
    p->len[s - 1] = 0;
    for (int i = 0; i < n; i++) {
        int d = i % NCOL;
        p->col[d][p->len[d]++] = picked[i];
    }
    p->mv[p->nmv][0] = -1;
    p->mv[p->nmv][1] = -1;
    p->nmv++;
}

/* ------------------------------------------------------------------ score (_score, king foresight on) */

static double score(const Ctx *x, const Pos *p, int s, double blocked_weight, double king_weight)
{
    double sc = 10.0 * played_of(p);
    if (blocked_weight != 0.0) {
        int dist[14];
        for (int r = 0; r < 14; r++)
            dist[r] = 99;
        for (int j = 0; j < NCOL; j++)
            for (int q = p->prog[j]; q < PILE_LEN; q++) {
                int r = x->need[j][q];
                if (q - p->prog[j] < dist[r])
                    dist[r] = q - p->prog[j];
            }
        for (int c = 0; c < NCOL; c++) {
            if (!frozen(c, s))
                continue;
            int m = -1;
            for (int i = p->len[c] - 1; i >= 0; i--) {
                int d = dist[p->col[c][i]];
                if (d < m)
                    sc -= blocked_weight;
                else if (d > m)
                    m = d;
            }
        }
    }
    /* where every king ends if nothing more moves: only the column lengths and the kings' places
       need following through the coming redeals (card i of a picked-up column goes to column
       i % NCOL, on top of what that column holds then) */
    int flen[NCOL], base[NCOL], kc[TOTAL], ki[TOTAL], nk = 0;
    for (int c = 0; c < NCOL; c++) {
        flen[c] = p->len[c];
        for (int i = 0; i < p->len[c]; i++)
            if (p->col[c][i] == KING) {       /* at most TOTAL cards: read_pos checks */
                kc[nk] = c;
                ki[nk] = i;
                nk++;
            }
    }
    for (int t = s; t < SESSIONS; t++) {
        int src = t - 1, n = flen[src];
        memcpy(base, flen, sizeof base);
        base[src] = 0;
        for (int k = 0; k < nk; k++)
            if (kc[k] == src) {
                int i = ki[k];
                kc[k] = i % NCOL;
                ki[k] = base[i % NCOL] + i / NCOL;
            }
        for (int d = 0; d < NCOL; d++)
            flen[d] = base[d] + n / NCOL + (d < n % NCOL);
    }
    for (int k = 0; k < nk; k++)
        sc -= king_weight * ki[k];
    return sc;
}

/* ------------------------------------------------------------------ dead-end cuts */

/* kings_relaxation(quick=True): some pile must be able to reach its king */
static int kings_quick(const Ctx *x, const Pos *p, int s)
{
    int avail[14] = {0};
    for (int c = 0; c < NCOL; c++) {
        if (!frozen(c, s)) {
            for (int i = 0; i < p->len[c]; i++)
                if (p->col[c][i] != KING)
                    avail[p->col[c][i]]++;
            continue;
        }
        for (int i = p->len[c] - 1; i >= 0 && p->col[c][i] != KING; i--)
            avail[p->col[c][i]]++;
    }
    int any_incomplete = 0;
    for (int j = 0; j < NCOL; j++) {
        if (p->prog[j] >= PILE_LEN)
            continue;
        any_incomplete = 1;
        int ok = 1;
        for (int q = p->prog[j]; q < PILE_LEN - 1; q++)
            if (!avail[x->need[j][q]]) {
                ok = 0;
                break;
            }
        if (ok)
            return 1;
    }
    return !any_incomplete;
}

typedef struct {
    int n;
    int len[2 * NCOL];
    uint8_t r[2 * NCOL][MAXC];      /* top first */
} Chains;

/* _fixed_chains: runs of cards whose order no redeal can change */
static void fixed_chains(const Pos *p, int s, Chains *ch)
{
    ch->n = 0;
    for (int c = 0; c < NCOL; c++)
        if (frozen(c, s)) {
            int L = p->len[c];
            for (int i = 0; i < L; i++)
                ch->r[ch->n][i] = p->col[c][L - 1 - i];
            ch->len[ch->n++] = L;
        }
    if (s < SESSIONS) {
        const uint8_t *col = p->col[s - 1];
        int L = p->len[s - 1];
        for (int d = 0; d < NCOL && d < L; d++) {
            if (!frozen(d, s + 1))
                continue;
            int m = 0;
            for (int i = d; i < L; i += NCOL)
                m++;
            int k = 0;
            for (int i = d + (m - 1) * NCOL; i >= 0; i -= NCOL)
                ch->r[ch->n][k++] = col[i];
            ch->len[ch->n++] = m;
        }
    }
}

static int rank_block(const Ctx *x, const Pos *p, const Chains *ch)
{
    const int full = (1 << 14) - 1;
    int covered[14], held[14] = {0}, left[14] = {0}, before[14];
    for (int r = 0; r < 14; r++) {
        covered[r] = full;
        before[r] = full;
    }
    for (int k = 0; k < ch->n; k++) {
        int above = 0;
        for (int i = 0; i < ch->len[k]; i++) {
            int r = ch->r[k][i];
            covered[r] &= above;
            above |= 1 << r;
            held[r]++;
        }
    }
    for (int c = 0; c < NCOL; c++)
        for (int i = 0; i < p->len[c]; i++)
            left[p->col[c][i]]++;
    for (int r = 1; r < 14; r++)
        if (held[r] != left[r])
            covered[r] = 0;
    int wanted = 0;
    for (int j = 0; j < NCOL; j++) {
        int q0 = p->prog[j];
        if (q0 >= PILE_LEN)
            continue;
        int base = x->pre[j][q0];
        for (int q = q0; q < PILE_LEN; q++) {
            int a = x->need[j][q];
            wanted |= 1 << a;
            before[a] &= x->pre[j][q] ^ base;
        }
    }
    for (int b = 1; b < 14; b++) {
        int cb = covered[b];
        if (!cb || cb == full || !(wanted >> b & 1))
            continue;
        for (int a = 1; a < 14; a++)
            if ((cb >> a & 1) && (wanted >> a & 1) && (before[a] >> b & 1))
                return 1;
    }
    return 0;
}

static int order_cycle(const Ctx *x, const Pos *p, const Chains *ch)
{
    int cnt[14] = {0}, oj[14] = {0}, oq[14] = {0};
    for (int j = 0; j < NCOL; j++) {
        int pr = p->prog[j];
        if (pr >= PILE_LEN)
            continue;
        for (int r = 1; r < 14; r++) {
            int q = x->place[j][r];
            if (q >= 0 && q >= pr) {
                cnt[r]++;
                oj[r] = j;
                oq[r] = q;
            }
        }
    }
    int nsingle = 0;
    for (int r = 1; r < 14; r++)
        nsingle += cnt[r] == 1;
    if (nsingle < 2)
        return 0;
    static __thread uint8_t ea[2 * NCOL * MAXC + 64], eb[2 * NCOL * MAXC + 64];
    int ne = 0, indeg[14] = {0};
    for (int j = 0; j < NCOL; j++) {
        /* the single ranks pile j wants, in its order */
        int prev = 0;
        for (int q = 0; q < PILE_LEN; q++) {
            int r = x->need[j][q];
            if (cnt[r] == 1 && oj[r] == j && oq[r] == q) {
                if (prev) {
                    ea[ne] = (uint8_t)prev;
                    eb[ne++] = (uint8_t)r;
                    indeg[r]++;
                }
                prev = r;
            }
        }
    }
    for (int k = 0; k < ch->n; k++) {
        int prev = 0;
        for (int i = 0; i < ch->len[k]; i++) {
            int r = ch->r[k][i];
            if (cnt[r] == 1) {
                if (prev) {
                    ea[ne] = (uint8_t)prev;
                    eb[ne++] = (uint8_t)r;
                    indeg[r]++;
                }
                prev = r;
            }
        }
    }
    int todo[14], nt = 0, done = 0;
    for (int r = 1; r < 14; r++)
        if (cnt[r] == 1 && indeg[r] == 0)
            todo[nt++] = r;
    while (nt) {
        int r = todo[--nt];
        done++;
        for (int e = 0; e < ne; e++)
            if (ea[e] == r && --indeg[eb[e]] == 0)
                todo[nt++] = eb[e];
    }
    return done < nsingle;
}

/* the beam's dead-end test: 1 when the position may still be won */
static int alive(const Ctx *x, const Pos *p, int s)
{
    if (!kings_quick(x, p, s))
        return 0;
    static __thread Chains ch;
    fixed_chains(p, s, &ch);
    return !rank_block(x, p, &ch) && !order_cycle(x, p, &ch);
}

/* ------------------------------------------------------------------ last session (_finish_last) */

#define FAIL_BITS 14
typedef struct {
    const Ctx *x;
    const Pos *p;
    int heights[NCOL];
    uint8_t prog[NCOL];
    int nxt[NCOL];
    int rem[15];
    int played, best, count, nodes;
    int npath, nbest;
    int8_t path[TOTAL][2];
    int8_t best_path[TOTAL][2];     /* the moves to `best`, so a line kept reaches what it claims */
    uint64_t fk[1 << FAIL_BITS][2];
    uint32_t fgen[1 << FAIL_BITS];
    uint32_t gen;
    int nfail;
} Finish;

static void fl_key(const Finish *f, uint64_t *a, uint64_t *b)
{
    uint64_t u = 0, v = 0;
    for (int c = 0; c < NCOL; c++) {
        u = u << 8 | (uint64_t)f->heights[c];
        v = v << 8 | (uint64_t)(f->prog[c] < PILE_LEN - 1 ? f->prog[c] : PILE_LEN - 1);
    }
    *a = u;
    *b = v;
}

static int fl_slot(const Finish *f, uint64_t a, uint64_t b, int *found)
{
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full);
    int mask = (1 << FAIL_BITS) - 1;
    int i = (int)(h >> (64 - FAIL_BITS));
    while (f->fgen[i] == f->gen) {
        if (f->fk[i][0] == a && f->fk[i][1] == b) {
            *found = 1;
            return i;
        }
        i = (i + 1) & mask;
    }
    *found = 0;
    return i;
}

/* 1: won (the moves are in path), 0: no way on, -1: node budget spent */
static int fl_rec(Finish *f)
{
    if (f->played == TOTAL)
        return 1;
    if (f->played > f->best) {
        f->best = f->played;
        f->nbest = f->npath;
        memcpy(f->best_path, f->path, sizeof(f->path[0]) * (size_t)f->npath);
    }
    uint64_t ka, kb;
    int found;
    fl_key(f, &ka, &kb);
    fl_slot(f, ka, kb, &found);
    if (found)
        return 0;
    if (++f->count > f->nodes)
        return -1;
    const Ctx *x = f->x;
    int wanted[14][NCOL], wn[14] = {0};
    for (int j = 0; j < NCOL; j++) {
        int r = f->nxt[j];
        if (r)
            wanted[r][wn[r]++] = j;
    }
    int mp[NCOL * NCOL], mc[NCOL * NCOL], mj[NCOL * NCOL], n = 0, forced = 0;
    for (int c = 0; c < NCOL; c++) {
        int h = f->heights[c];
        if (!h)
            continue;
        const uint8_t *col = f->p->col[c];
        int t = col[h - 1];
        if (!wn[t])
            continue;
        if (t == KING) {
            mp[n] = 0;
            mc[n] = c;
            mj[n++] = wanted[t][0];
            continue;
        }
        if (f->rem[t] == 1) {
            mp[0] = 0;
            mc[0] = c;
            mj[0] = wanted[t][0];
            n = 1;
            forced = 1;
            break;
        }
        int u = h > 1 ? col[h - 2] : 0;
        for (int k = 0; k < wn[t]; k++) {
            int j = wanted[t][k];
            mp[n] = (u && (u == x->need[j][f->prog[j] + 1] || (u < 14 && wn[u]))) ? 2 : 0;
            mc[n] = c;
            mj[n++] = j;
        }
    }
    if (!forced && n > 1) {
        /* descending by (priority, column, pile), as Python sorts the tuples */
        for (int i = 1; i < n; i++) {
            int a = mp[i], b = mc[i], d = mj[i], k = i;
            while (k > 0 && (mp[k - 1] < a || (mp[k - 1] == a && (mc[k - 1] < b || (mc[k - 1] == b && mj[k - 1] < d))))) {
                mp[k] = mp[k - 1];
                mc[k] = mc[k - 1];
                mj[k] = mj[k - 1];
                k--;
            }
            mp[k] = a;
            mc[k] = b;
            mj[k] = d;
        }
    }
    for (int i = 0; i < n; i++) {
        int c = mc[i], j = mj[i];
        int t = f->p->col[c][f->heights[c] - 1];
        f->heights[c]--;
        int q = ++f->prog[j];
        f->nxt[j] = x->need[j][q];
        f->rem[t]--;
        f->played++;
        f->path[f->npath][0] = (int8_t)c;
        f->path[f->npath][1] = (int8_t)j;
        f->npath++;
        int got = fl_rec(f);
        if (got)
            return got;
        f->npath--;
        f->heights[c]++;
        f->prog[j] = (uint8_t)(q - 1);
        f->nxt[j] = t;
        f->rem[t]++;
        f->played--;
    }
    if (f->nfail < (1 << FAIL_BITS) / 2) {     /* a full table only forgets: never wrong */
        int i = fl_slot(f, ka, kb, &found);
        f->fk[i][0] = ka;
        f->fk[i][1] = kb;
        f->fgen[i] = f->gen;
        f->nfail++;
    }
    return 0;
}

static int finish_last(Finish *f, const Ctx *x, const Pos *p, int nodes)
{
    f->x = x;
    f->p = p;
    f->played = 0;
    for (int r = 0; r < 15; r++)
        f->rem[r] = 0;
    for (int c = 0; c < NCOL; c++) {
        f->heights[c] = p->len[c];
        for (int i = 0; i < p->len[c]; i++)
            f->rem[p->col[c][i]]++;
    }
    for (int j = 0; j < NCOL; j++) {
        f->prog[j] = p->prog[j];
        f->nxt[j] = p->prog[j] < PILE_LEN ? x->need[j][p->prog[j]] : 0;
        f->played += p->prog[j];
    }
    f->best = f->played;
    f->count = 0;
    f->nodes = nodes;
    f->npath = 0;
    f->nbest = 0;
    f->nfail = 0;
    if (++f->gen == 0) {
        memset(f->fgen, 0, sizeof f->fgen);
        f->gen = 1;
    }
    return fl_rec(f);
}

/* ------------------------------------------------------------------ beam (_beam) */

typedef struct {
    double sc;
    int idx;
} Ranked;

static int ranked_cmp(const void *a, const void *b)
{
    const Ranked *u = a, *v = b;
    if (u->sc != v->sc)
        return u->sc > v->sc ? -1 : 1;
    return u->idx - v->idx;       /* stable, as Python's sort */
}

/* a copy of what a position uses (its columns' cards and its moves), not the whole struct:
   the beam copies every play-out's start, and most of a Pos is unused space */
static void pos_copy(Pos *dst, const Pos *src)
{
    memcpy(dst->len, src->len, NCOL);
    memcpy(dst->prog, src->prog, NCOL);
    for (int c = 0; c < NCOL; c++)
        for (int i = 0; i < src->len[c]; i += 16)      /* fixed-size pieces copy faster than one of any size */
            memcpy(dst->col[c] + i, src->col[c] + i, 16);
    dst->nmv = src->nmv;
    memcpy(dst->mv, src->mv, sizeof(src->mv[0]) * (size_t)src->nmv);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

/* eight bytes at a time: only equal positions must hash equal (pos_same decides) */
static uint64_t pos_hash(const Pos *p)
{
    uint64_t h = 1469598103934665603ull, v;
    memcpy(&v, p->prog, sizeof v);
    h = mix(h, v);
    memcpy(&v, p->len, sizeof v);
    h = mix(h, v);
    for (int c = 0; c < NCOL; c++) {
        int n = p->len[c], i = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&v, p->col[c] + i, sizeof v);
            h = mix(h, v);
        }
        if (i < n) {
            v = 0;
            memcpy(&v, p->col[c] + i, (size_t)(n - i));
            h = mix(h, v);
        }
    }
    return h;
}

static int pos_same(const Pos *a, const Pos *b)
{
    if (memcmp(a->prog, b->prog, NCOL) || memcmp(a->len, b->len, NCOL))
        return 0;
    for (int c = 0; c < NCOL; c++)
        if (memcmp(a->col[c], b->col[c], a->len[c]))
            return 0;
    return 1;
}

typedef struct {
    int width, samples, finish_nodes;
    double noise, blocked_weight, king_weight, hold;
} Params;

typedef struct {
    Pos *beam, *cand, *won;
    uint64_t *hash;
    int *slot;              /* open hash table of the candidates, -1 = empty */
    size_t slot_mask;
    Ranked *rank;
    Finish *fin;
    Pos best_line;
    int best;
    int have_line;
} Work;

/* 1: a win (in w->won), 0: none found, -1: out of time */
static int beam_run(const Ctx *x, const Pos *start, int s0, const Params *pr, const Clock *clk, uint64_t *rng, Work *w)
{
    int nbeam = 1, s = s0;
    pos_copy(&w->beam[0], start);
    while (nbeam) {
        int ncand = 0;
        memset(w->slot, 0xff, sizeof(int) * (w->slot_mask + 1));     /* every slot -1: empty */
        for (int b = 0; b < nbeam; b++) {
            Pos *cur = &w->beam[b];
            if (s >= SESSIONS) {
                if (out_of_time(clk))
                    return -1;
                int got = finish_last(w->fin, x, cur, pr->finish_nodes);
                if (got == 1) {
                    memcpy(w->won, cur, sizeof(Pos));
                    for (int i = 0; i < w->fin->npath; i++) {
                        w->won->mv[w->won->nmv][0] = w->fin->path[i][0];
                        w->won->mv[w->won->nmv][1] = w->fin->path[i][1];
                        w->won->nmv++;
                    }
                    return 1;
                }
                if (w->fin->best > w->best) {
                    /* the best seen is kept with its moves: a line claimed must be a line played */
                    w->best = w->fin->best;
                    memcpy(&w->best_line, cur, sizeof(Pos));
                    for (int i = 0; i < w->fin->nbest; i++) {
                        w->best_line.mv[w->best_line.nmv][0] = w->fin->best_path[i][0];
                        w->best_line.mv[w->best_line.nmv][1] = w->fin->best_path[i][1];
                        w->best_line.nmv++;
                    }
                    w->have_line = 1;
                }
                if (got == 0)
                    continue;           /* no way to finish: drop it */
            }
            if (out_of_time(clk))
                return -1;
            for (int k = 0; k < pr->samples; k++) {
                Pos *c2 = &w->cand[ncand];
                pos_copy(c2, cur);
                playout(x, c2, s, rng, pr->noise, pr->hold);
                int played = played_of(c2);
                if (played > w->best || !w->have_line) {
                    if (played > w->best)
                        w->best = played;
                    memcpy(&w->best_line, c2, sizeof(Pos));
                    w->have_line = 1;
                }
                if (played == TOTAL) {
                    memcpy(w->won, c2, sizeof(Pos));
                    return 1;
                }
                /* a play-out that ends where another did adds nothing: kept once (a hash table) */
                uint64_t h = pos_hash(c2);
                int dup = 0;
                size_t at = (size_t)h & w->slot_mask;
                for (; w->slot[at] >= 0; at = (at + 1) & w->slot_mask) {
                    int i = w->slot[at];
                    if (w->hash[i] == h && pos_same(&w->cand[i], c2)) {
                        dup = 1;
                        break;
                    }
                }
                if (!dup) {
                    w->slot[at] = ncand;
                    w->hash[ncand++] = h;
                }
            }
        }
        if (s >= SESSIONS)
            return 0;
        for (int i = 0; i < ncand; i++) {
            redeal(&w->cand[i], s);
            w->rank[i].sc = score(x, &w->cand[i], s + 1, pr->blocked_weight, pr->king_weight);
            w->rank[i].idx = i;
        }
        s++;
        qsort(w->rank, (size_t)ncand, sizeof(Ranked), ranked_cmp);
        nbeam = 0;
        for (int i = 0; i < ncand && nbeam < pr->width; i++) {
            Pos *c2 = &w->cand[w->rank[i].idx];
            if (alive(x, c2, s))
                pos_copy(&w->beam[nbeam++], c2);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ Python glue */

static int read_pos(PyObject *cols, PyObject *prog, PyObject *keys, Pos *p, uint8_t *k)
{
    memset(p, 0, sizeof(Pos));
    if (!PySequence_Check(cols) || PySequence_Size(cols) != NCOL) {
        PyErr_SetString(PyExc_ValueError, "cols must be a sequence of 8 byte strings");
        return -1;
    }
    int total = 0;
    for (int c = 0; c < NCOL; c++) {
        PyObject *o = PySequence_GetItem(cols, c);
        if (!o)
            return -1;
        Py_buffer b;
        if (PyObject_GetBuffer(o, &b, PyBUF_SIMPLE) < 0) {
            Py_DECREF(o);
            return -1;
        }
        total += (int)b.len;
        if (b.len > MAXC || total > TOTAL) {
            PyBuffer_Release(&b);
            Py_DECREF(o);
            PyErr_SetString(PyExc_ValueError, "more than 96 cards in the columns");
            return -1;
        }
        const uint8_t *d = b.buf;
        for (Py_ssize_t i = 0; i < b.len; i++) {
            if (d[i] < 1 || d[i] > 13) {
                PyBuffer_Release(&b);
                Py_DECREF(o);
                PyErr_SetString(PyExc_ValueError, "a rank is not in 1..13");
                return -1;
            }
            p->col[c][i] = d[i];
        }
        p->len[c] = (uint8_t)b.len;
        PyBuffer_Release(&b);
        Py_DECREF(o);
    }
    Py_buffer bp, bk;
    if (PyObject_GetBuffer(prog, &bp, PyBUF_SIMPLE) < 0)
        return -1;
    if (PyObject_GetBuffer(keys, &bk, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&bp);
        return -1;
    }
    int bad = bp.len != NCOL || bk.len != NCOL;
    for (int j = 0; !bad && j < NCOL; j++) {
        uint8_t pj = ((uint8_t *)bp.buf)[j], kj = ((uint8_t *)bk.buf)[j];
        bad = pj > PILE_LEN || kj < 1 || kj > 12;
        p->prog[j] = pj;
        k[j] = kj;
    }
    PyBuffer_Release(&bp);
    PyBuffer_Release(&bk);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "prog and keys must be 8 bytes (0..12 and 1..12)");
        return -1;
    }
    return 0;
}

static PyObject *moves_list(const Pos *p, int from)
{
    PyObject *l = PyList_New(0);
    if (!l)
        return NULL;
    for (int i = from; i < p->nmv; i++) {
        PyObject *t = Py_BuildValue("(ii)", (int)p->mv[i][0], (int)p->mv[i][1]);
        if (!t || PyList_Append(l, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(l);
            return NULL;
        }
        Py_DECREF(t);
    }
    return l;
}

static PyObject *cols_tuple(const Pos *p)
{
    PyObject *t = PyTuple_New(NCOL);
    for (int c = 0; t && c < NCOL; c++)
        PyTuple_SET_ITEM(t, c, PyBytes_FromStringAndSize((const char *)p->col[c], p->len[c]));
    return t;
}

/* The position and its context from a function's Python arguments; -1, with the exception set,
 * on bad input. */
static int position_args(PyObject *cols, PyObject *prog, PyObject *keys, int session, Pos *p, Ctx *x)
{
    if (session < 1 || session > SESSIONS) {
        PyErr_SetString(PyExc_ValueError, "session must be 1..8");
        return -1;
    }
    uint8_t k[NCOL];
    if (read_pos(cols, prog, keys, p, k) < 0)
        return -1;
    ctx_init(x, k);
    return 0;
}

static const char beam_search_doc[] =
    "beam_search(cols, prog, keys, session, seconds, cpu, seed, width, samples, noise, finish_nodes,\n"
    "            blocked_weight, king_weight[, group, hold]) -> (plan or None, best, line)\n\n"
    "Restarted beam searches until a win is found or the time is up (cpu: 0 wall clock, 1 CPU time\n"
    "of the process, 2 of this thread). Searches of one group stop when one of them wins; hold is\n"
    "the chance that a play-out declines a move it chose. plan and line are lists of (column, pile),\n"
    "(-1, -1) for a redeal.";

static PyObject *py_beam_search(PyObject *self, PyObject *args)
{
    PyObject *cols, *prog, *keys;
    int session, cpu, width, samples, finish_nodes, group = -1;
    double hold = 0.0;
    unsigned long long seed;
    double seconds, noise, bw, kw;
    /* cpu: 0 wall clock, 1 this process's CPU time, 2 this thread's CPU time (searches side by side) */
    if (!PyArg_ParseTuple(args, "OOOidiKiididd|id", &cols, &prog, &keys, &session, &seconds, &cpu, &seed,
                          &width, &samples, &noise, &finish_nodes, &bw, &kw, &group, &hold))
        return NULL;
    if (width < 1 || samples < 1) {
        PyErr_SetString(PyExc_ValueError, "width and samples must be at least 1");
        return NULL;
    }
    Pos *start = PyMem_Malloc(sizeof(Pos)), *line = PyMem_Malloc(sizeof(Pos));
    Work w;
    memset(&w, 0, sizeof w);
    size_t ncap = (size_t)width * (size_t)samples + 1;
    w.beam = PyMem_Malloc(sizeof(Pos) * (size_t)width);
    w.cand = PyMem_Malloc(sizeof(Pos) * ncap);
    w.won = PyMem_Malloc(sizeof(Pos));
    w.hash = PyMem_Malloc(sizeof(uint64_t) * ncap);
    size_t nslot = 16;
    while (nslot < 2 * ncap)
        nslot *= 2;
    w.slot = PyMem_Malloc(sizeof(int) * nslot);
    w.slot_mask = nslot - 1;
    w.rank = PyMem_Malloc(sizeof(Ranked) * ncap);
    w.fin = PyMem_Calloc(1, sizeof(Finish));
    PyObject *res = NULL;
    Ctx x;
    if (!start || !line || !w.beam || !w.cand || !w.won || !w.hash || !w.slot || !w.rank || !w.fin) {
        PyErr_NoMemory();
        goto done;
    }
    if (position_args(cols, prog, keys, session, start, &x) < 0)
        goto done;
    Params pr = {width, samples, finish_nodes, noise, bw, kw, hold};
    Clock clk = {cpu == 2 ? CLOCK_THREAD_CPUTIME_ID : cpu ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, 0.0, group};
    clk.end = clock_now(&clk) + seconds;
    uint64_t rng = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;
    int start_played = played_of(start);
    int best = start_played, won = 0, have = 0;
    memcpy(line, start, sizeof(Pos));
    Py_BEGIN_ALLOW_THREADS
    while (!out_of_time(&clk)) {
        w.best = start_played;
        w.have_line = 0;
        int got = beam_run(&x, start, session, &pr, &clk, &rng, &w);
        if (w.have_line && (w.best > best || !have)) {
            memcpy(line, &w.best_line, sizeof(Pos));
            have = 1;
        }
        if (w.best > best)
            best = w.best;
        if (got == 1) {
            won = 1;
            if (group >= 0)
                __atomic_store_n(&won_group, group, __ATOMIC_RELAXED);
            break;
        }
        if (session == SESSIONS)
            break;                  /* the last session's search is complete: no retry */
    }
    Py_END_ALLOW_THREADS
    PyObject *plan = won ? moves_list(w.won, 0) : (Py_INCREF(Py_None), Py_None);
    PyObject *ln = moves_list(won ? w.won : line, 0);
    res = (plan && ln) ? Py_BuildValue("(OiO)", plan, won ? TOTAL : best, ln) : NULL;
    Py_XDECREF(plan);
    Py_XDECREF(ln);
done:
    PyMem_Free(w.beam); PyMem_Free(w.cand); PyMem_Free(w.won);
    PyMem_Free(w.hash); PyMem_Free(w.slot); PyMem_Free(w.rank); PyMem_Free(w.fin); PyMem_Free(start); PyMem_Free(line);
    return res;
}

/* the parts, for the tests that compare them with the Python version */

static PyObject *py_playout(PyObject *self, PyObject *args)
{
    PyObject *cols, *prog, *keys;
    int session;
    unsigned long long seed;
    double noise, hold = 0.0;
    if (!PyArg_ParseTuple(args, "OOOiKd|d", &cols, &prog, &keys, &session, &seed, &noise, &hold))
        return NULL;
    Pos p;
    Ctx x;
    if (position_args(cols, prog, keys, session, &p, &x) < 0)
        return NULL;
    uint64_t rng = seed;
    playout(&x, &p, session, &rng, noise, hold);
    PyObject *mv = moves_list(&p, 0), *ct = cols_tuple(&p);
    PyObject *res = (mv && ct) ? Py_BuildValue("(Oy#O)", ct, (const char *)p.prog, (Py_ssize_t)NCOL, mv) : NULL;
    Py_XDECREF(mv);
    Py_XDECREF(ct);
    return res;
}

static PyObject *py_score(PyObject *self, PyObject *args)
{
    PyObject *cols, *prog, *keys;
    int session;
    double bw, kw;
    if (!PyArg_ParseTuple(args, "OOOidd", &cols, &prog, &keys, &session, &bw, &kw))
        return NULL;
    Pos p;
    Ctx x;
    if (position_args(cols, prog, keys, session, &p, &x) < 0)
        return NULL;
    return PyFloat_FromDouble(score(&x, &p, session, bw, kw));
}

static PyObject *py_cuts(PyObject *self, PyObject *args)
{
    PyObject *cols, *prog, *keys;
    int session;
    if (!PyArg_ParseTuple(args, "OOOi", &cols, &prog, &keys, &session))
        return NULL;
    Pos p;
    Ctx x;
    if (position_args(cols, prog, keys, session, &p, &x) < 0)
        return NULL;
    Chains ch;
    fixed_chains(&p, session, &ch);
    return Py_BuildValue("(NNN)", PyBool_FromLong(kings_quick(&x, &p, session)),
                         PyBool_FromLong(rank_block(&x, &p, &ch)),
                         PyBool_FromLong(order_cycle(&x, &p, &ch)));
}

static PyObject *py_finish_last(PyObject *self, PyObject *args)
{
    PyObject *cols, *prog, *keys;
    int nodes;
    if (!PyArg_ParseTuple(args, "OOOi", &cols, &prog, &keys, &nodes))
        return NULL;
    Pos p;
    Ctx x;
    if (position_args(cols, prog, keys, SESSIONS, &p, &x) < 0)      /* the last session's search */
        return NULL;
    Finish *f = PyMem_Calloc(1, sizeof(Finish));
    if (!f)
        return PyErr_NoMemory();
    int got = finish_last(f, &x, &p, nodes);
    PyObject *path = PyList_New(0);
    for (int i = 0; path && got == 1 && i < f->npath; i++) {
        PyObject *t = Py_BuildValue("(ii)", (int)f->path[i][0], (int)f->path[i][1]);
        if (!t || PyList_Append(path, t) < 0) {
            Py_XDECREF(t);
            Py_CLEAR(path);
            break;
        }
        Py_DECREF(t);
    }
    int best = f->best;
    PyMem_Free(f);
    if (!path)
        return NULL;
    return Py_BuildValue("(iNi)", got, path, best);
}

static PyMethodDef methods[] = {
    {"beam_search", py_beam_search, METH_VARARGS, beam_search_doc},
    {"playout", py_playout, METH_VARARGS,
     "playout(cols, prog, keys, session, seed, noise[, hold]) -> (cols, prog, moves): one session played out"},
    {"score", py_score, METH_VARARGS,
     "score(cols, prog, keys, session, blocked_weight, king_weight) -> float, as _score with king foresight"},
    {"cuts", py_cuts, METH_VARARGS,
     "cuts(cols, prog, keys, session) -> (kings quick test passes, rank_block, order_cycle)"},
    {"finish_last", py_finish_last, METH_VARARGS,
     "finish_last(cols, prog, keys, nodes) -> (1 won / 0 none / -1 budget, moves, most cards played)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_swfast", "The Senior Wrangler solver's beam search in C (see _swfast.c).", -1, methods,
};

PyMODINIT_FUNC PyInit__swfast(void)
{
    return PyModule_Create(&module);
}
