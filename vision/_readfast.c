/* The layout reader's innermost loops, in C: placing cards (vision.reading._locate_many) and
 * register's vote at one pose (vision.reading._pose_votes).
 *
 * vision/reading.py holds the reference versions (_locate_many, _place_costs and _consistent;
 * _pose_votes, _vote_bins and _top_bins_each) and the reasons behind each rule; this file is a
 * port of them, operation for operation, so that both give the same places, distances, fits and
 * votes, bit for bit (tests compare them). Both run thousands of times a reading: scoring every
 * voted alignment, refining the best ones and reading them. In numpy each call spends most of its
 * time on call overhead for a few hundred numbers. The build is optional: without a C compiler
 * the reader uses the numpy versions.
 *
 * Built with -ffp-contract=off: a fused multiply-add would round differently from numpy.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    double max_fan, across, squared_fit;
    int rounds;
    double max_gap, max_hidden;
    int reach_gap;
    double reach_near, reach_near_gap;
} Params;

typedef struct {
    const double *heads, *flen, *unit, *reach;
    const uint8_t *open_fan;
    Py_ssize_t P;
} Places;

/* _place_costs for one point against every place: cost (inf where it cannot lie) and along. */
static void place_costs(double x, double y, const Places *pl, const Params *pr, double *cost, double *along)
{
    for (Py_ssize_t p = 0; p < pl->P; p++) {
        double dx = x - pl->heads[2 * p], dy = y - pl->heads[2 * p + 1];
        double ux = pl->unit[2 * p], uy = pl->unit[2 * p + 1];
        double fl = pl->flen[p];
        double a = dx * ux + dy * uy;
        double across = fabs(dx * uy - dy * ux);
        int fanned = fl > 0;
        along[p] = a;
        if (!fanned) {
            double sq = hypot(dx, dy / 1.2);
            cost[p] = sq < pr->squared_fit ? sq - 10.0 : INFINITY;
            continue;
        }
        if (a > -0.45 && a < pr->max_fan * fl + 0.5 && across < pr->across) {
            double f = fl > 1e-9 ? fl : 1e-9;
            double step_off = a <= 0 ? -a : fabs(a - nearbyint(a / f) * f);
            cost[p] = across + step_off;
        } else {
            cost[p] = INFINITY;
        }
    }
}

typedef struct {
    int64_t owner;
    double along;
    Py_ssize_t n;
} Seat;

static int seat_cmp(const void *x, const void *y)
{
    const Seat *a = x, *b = y;
    if (a->owner != b->owner)
        return a->owner < b->owner ? -1 : 1;
    if (a->along != b->along)
        return a->along < b->along ? -1 : 1;
    return a->n < b->n ? -1 : (a->n > b->n);      /* numpy's lexsort is stable */
}

/* _consistent for one alignment: ok[n] for owner[n], along[n]. */
static void consistent(const int64_t *owner, const double *along, Py_ssize_t N, const Places *pl,
                       const Params *pr, uint8_t *ok, Seat *seats)
{
    Py_ssize_t m = 0;
    for (Py_ssize_t n = 0; n < N; n++) {
        ok[n] = owner[n] >= 0;
        if (ok[n] && pl->flen[owner[n]] > 0) {
            seats[m].owner = owner[n];
            seats[m].along = along[n];
            seats[m].n = n;
            m++;
        }
    }
    qsort(seats, (size_t)m, sizeof(Seat), seat_cmp);
    int broken_fan = 0;
    double prev = 0.0;
    for (Py_ssize_t i = 0; i < m; i++) {
        int64_t k = seats[i].owner;
        double a = seats[i].along, fan = pl->flen[k];
        int head = i == 0 || seats[i - 1].owner != k;
        if (head)
            broken_fan = 0;
        double gap_max = pr->max_gap * fan;
        if (!(gap_max >= 0.45))
            gap_max = 0.45;
        if (pr->reach_gap) {
            double r = pl->reach[k] - 0.5 * fan;
            if (r < gap_max)
                gap_max = r;
        }
        double start = pl->open_fan[k] ? gap_max : 0.45 + pr->max_hidden * fan;
        if (pr->reach_near != 0.0 && fabs(a - pl->reach[k]) <= pr->reach_near * fan) {
            double g = pr->reach_near_gap * fan;
            if (g < gap_max)
                gap_max = g;
        }
        int broken = head ? a > start : (a - prev) > gap_max;
        if (broken)
            broken_fan = 1;
        if (broken_fan)
            ok[seats[i].n] = 0;
        prev = a;
    }
}

static int get(PyObject *o, Py_buffer *b, Py_ssize_t bytes, int writable, const char *what)
{
    if (PyObject_GetBuffer(o, b, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0)
        return -1;
    if (b->len != bytes) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %zd", what, b->len, bytes);
        PyBuffer_Release(b);
        return -1;
    }
    return 0;
}

/* The n arrays' buffers, each of its expected size; those from ``first_out`` on are written to. Returns how
 * many were got: all n, or fewer with an exception set (release those with release_all). */
static int get_all(PyObject *const *objs, const Py_ssize_t *sizes, const char *const *names, int n, int first_out,
                   Py_buffer *b)
{
    int got = 0;
    while (got < n && get(objs[got], &b[got], sizes[got], got >= first_out, names[got]) == 0)
        got++;
    return got;
}

static void release_all(Py_buffer *b, int got)
{
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
}

static PyObject *locate_many(PyObject *self, PyObject *args)
{
    PyObject *o_tab, *o_heads, *o_flen, *o_unit, *o_open, *o_reach, *o_owner, *o_along, *o_ok;
    Py_ssize_t K, N, P;
    Params pr;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOnnn(dddiddidd)", &o_tab, &o_heads, &o_flen, &o_unit, &o_open, &o_reach,
                          &o_owner, &o_along, &o_ok, &K, &N, &P, &pr.max_fan, &pr.across, &pr.squared_fit,
                          &pr.rounds, &pr.max_gap, &pr.max_hidden, &pr.reach_gap, &pr.reach_near,
                          &pr.reach_near_gap))
        return NULL;
    if (K < 0 || N < 0 || P < 1) {
        PyErr_SetString(PyExc_ValueError, "locate_many: bad sizes");
        return NULL;
    }
    Py_buffer b[9];
    PyObject *objs[9] = {o_tab, o_heads, o_flen, o_unit, o_open, o_reach, o_owner, o_along, o_ok};
    Py_ssize_t sizes[9] = {K * N * 2 * 8, P * 2 * 8, P * 8, P * 2 * 8, P, P * 8, K * N * 8, K * N * 8, K * N};
    const char *names[9] = {"tab", "heads", "flen", "unit", "open_fan", "reach", "owner", "along", "ok"};
    int got = get_all(objs, sizes, names, 9, 6, b);
    PyObject *result = NULL;
    double *cost = NULL, *al = NULL;
    int *finite_n = NULL;
    Seat *seats = NULL;
    if (got < 9)
        goto done;
    Places pl = {b[1].buf, b[2].buf, b[3].buf, b[5].buf, b[4].buf, P};
    const double *tab = b[0].buf;
    int64_t *owner = b[6].buf;
    double *along = b[7].buf;
    uint8_t *ok = b[8].buf;
    size_t cells = (size_t)(N > 0 ? N : 1) * (size_t)P;
    cost = malloc(cells * sizeof(double));
    al = malloc(cells * sizeof(double));
    finite_n = malloc((size_t)(N > 0 ? N : 1) * sizeof(int));
    seats = malloc((size_t)(N > 0 ? N : 1) * sizeof(Seat));
    if (!cost || !al || !finite_n || !seats) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t k = 0; k < K; k++) {
        const double *t = tab + k * N * 2;
        int64_t *o = owner + k * N;
        double *a = along + k * N;
        uint8_t *g = ok + k * N;
        for (Py_ssize_t n = 0; n < N; n++) {
            place_costs(t[2 * n], t[2 * n + 1], &pl, &pr, cost + n * P, al + n * P);
            int f = 0;
            for (Py_ssize_t p = 0; p < P; p++)
                f += isfinite(cost[n * P + p]) != 0;
            finite_n[n] = f;
        }
        for (int round = 0; round < pr.rounds; round++) {
            for (Py_ssize_t n = 0; n < N; n++) {
                const double *c = cost + n * P;
                Py_ssize_t best = 0;
                for (Py_ssize_t p = 1; p < P; p++)
                    if (c[p] < c[best])
                        best = p;
                o[n] = isfinite(c[best]) ? best : -1;
                a[n] = al[n * P + best];
            }
            consistent(o, a, N, &pl, &pr, g, seats);
            int again = 0;
            for (Py_ssize_t n = 0; n < N; n++)
                if (!g[n] && o[n] >= 0 && finite_n[n] > 1) {
                    cost[n * P + o[n]] = INFINITY;
                    finite_n[n]--;
                    again = 1;
                }
            if (!again)
                break;
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    free(cost);
    free(al);
    free(finite_n);
    free(seats);
    release_all(b, got);
    return result;
}

/* register's vote (vision.reading.register, one scale and foreshortening): every card against every slot
 * gives the translation that would put it there, for each turn; translations are hashed into bins twice (the
 * second grid shifted half a bin), and for each turn and grid the fullest bins are kept with their votes
 * and the mean translation of the cards in each. As _vote_bins, _top_bins_each and the bin means of the
 * reference: the hash in 32-bit two's complement, ties going to the lower bin, each mean summed in card
 * order and divided by the votes (as numpy's mean over the cards' axis does).
 *
 * vote(qx, qy, sl, T, N, S, width, hash, ranks, tops_k, tops_n, tops_t): qx, qy the N cards' points, sl the
 * T x S x 2 slots turned and scaled; outputs for grid g, turn t, rank r at [(g * T + t) * ranks + r]: the bin
 * (int64), its votes (int64, 0 past a turn's last non-empty bin) and the mean translation (2 float64). */
static PyObject *vote(PyObject *self, PyObject *args)
{
    PyObject *o_qx, *o_qy, *o_sl, *o_k, *o_n, *o_t;
    Py_ssize_t T, N, S, ranks;
    double width;
    long hash;
    if (!PyArg_ParseTuple(args, "OOOnnndlnOOO", &o_qx, &o_qy, &o_sl, &T, &N, &S, &width, &hash, &ranks, &o_k, &o_n, &o_t))
        return NULL;
    if (T < 1 || N < 0 || S < 0 || ranks < 1 || hash < 1 || (hash & (hash - 1))) {
        PyErr_SetString(PyExc_ValueError, "vote: bad sizes");
        return NULL;
    }
    Py_buffer b[6];
    PyObject *objs[6] = {o_qx, o_qy, o_sl, o_k, o_n, o_t};
    Py_ssize_t sizes[6] = {N * 8, N * 8, T * S * 2 * 8, 2 * T * ranks * 8, 2 * T * ranks * 8, 2 * T * ranks * 2 * 8};
    const char *names[6] = {"qx", "qy", "sl", "tops_k", "tops_n", "tops_t"};
    int got = get_all(objs, sizes, names, 6, 3, b);
    PyObject *result = NULL;
    Py_ssize_t M = N * S;
    uint32_t *bins = NULL;
    int64_t *counts = NULL;
    Py_ssize_t *slot_of = NULL;
    if (got < 6)
        goto done;
    const double *qx = b[0].buf, *qy = b[1].buf, *sl = b[2].buf;
    int64_t *tk = b[3].buf, *tn = b[4].buf;
    double *tt = b[5].buf;
    bins = malloc(2 * (size_t)(M > 0 ? M : 1) * sizeof(uint32_t));
    counts = malloc((size_t)hash * sizeof(int64_t));
    slot_of = malloc((size_t)hash * sizeof(Py_ssize_t));
    if (!bins || !counts || !slot_of) {
        PyErr_NoMemory();
        goto done;
    }
    for (long k = 0; k < hash; k++)
        slot_of[k] = -1;
    Py_BEGIN_ALLOW_THREADS
    const double offset[2] = {0.0 + 1048576.0, 0.5 + 1048576.0};     /* shift + VOTE_OFFSET */
    for (Py_ssize_t t = 0; t < T; t++) {
        const double *st = sl + t * S * 2;
        /* both grids' bins from one division (a double out of int32's range converts to INT32_MIN here
         * as in numpy: the same instruction) */
        for (Py_ssize_t n = 0, i = 0; n < N; n++)
            for (Py_ssize_t j = 0; j < S; j++, i++) {
                double ux = (qx[n] - st[2 * j]) / width, uy = (qy[n] - st[2 * j + 1]) / width;
                for (int g = 0; g < 2; g++) {
                    uint32_t bx = (uint32_t)(int32_t)(ux + offset[g]), by = (uint32_t)(int32_t)(uy + offset[g]);
                    bins[g * M + i] = ((bx * 73856093u) ^ (by * 19349663u)) & (uint32_t)(hash - 1);
                }
            }
        for (int g = 0; g < 2; g++) {
            const uint32_t *gb = bins + g * M;
            memset(counts, 0, (size_t)hash * sizeof(int64_t));
            for (Py_ssize_t i = 0; i < M; i++)
                counts[gb[i]]++;
            /* the fullest bins in one pass, kept in order (votes down, bin up): what taking the fullest
             * bin (the lowest of equals) rank after rank gives */
            Py_ssize_t base = (g * T + t) * ranks, kept = 0;
            int64_t *bk = tk + base, *bn = tn + base;
            for (long k = 0; k < hash; k++) {
                int64_t c = counts[k];
                if (c <= 0 || (kept == ranks && c <= bn[kept - 1]))
                    continue;
                Py_ssize_t pos = kept < ranks ? kept++ : ranks - 1;
                for (; pos > 0 && bn[pos - 1] < c; pos--) {
                    bn[pos] = bn[pos - 1];
                    bk[pos] = bk[pos - 1];
                }
                bn[pos] = c;
                bk[pos] = k;
            }
            for (Py_ssize_t r = kept; r < ranks; r++)
                bn[r] = bk[r] = 0;
            for (Py_ssize_t r = 0; r < ranks; r++)
                tt[2 * (base + r)] = tt[2 * (base + r) + 1] = 0.0;
            for (Py_ssize_t r = 0; r < kept; r++)
                slot_of[bk[r]] = r;
            if (!kept)
                continue;
            for (Py_ssize_t n = 0, i = 0; n < N; n++)
                for (Py_ssize_t j = 0; j < S; j++, i++) {
                    Py_ssize_t r = slot_of[gb[i]];
                    if (r >= 0) {
                        tt[2 * (base + r)] += qx[n] - st[2 * j];
                        tt[2 * (base + r) + 1] += qy[n] - st[2 * j + 1];
                    }
                }
            for (Py_ssize_t r = 0; r < kept; r++) {
                tt[2 * (base + r)] /= (double)bn[r];
                tt[2 * (base + r) + 1] /= (double)bn[r];
                slot_of[bk[r]] = -1;
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    free(bins);
    free(counts);
    free(slot_of);
    release_all(b, got);
    return result;
}

static PyMethodDef methods[] = {
    {"locate_many", locate_many, METH_VARARGS,
     "locate_many(tab, heads, flen, unit, open_fan, reach, owner, along, ok, K, N, P, params): "
     "vision.reading._locate_many, written into owner (int64), along (float64) and ok (bool)."},
    {"vote", vote, METH_VARARGS,
     "vote(qx, qy, sl, T, N, S, width, hash, ranks, tops_k, tops_n, tops_t): register's vote at one pose, "
     "written into tops_k, tops_n (int64) and tops_t (float64)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_readfast", NULL, -1, methods};

PyMODINIT_FUNC PyInit__readfast(void)
{
    return PyModule_Create(&module);
}
