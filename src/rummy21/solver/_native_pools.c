/* Splitting a rank's pool into sets in C: the native twin of rummy21/solver/pools.py.
 *
 * Included by _native.c (one translation unit: everything here is static). pools.py is the
 * reference: the same splits, in the same order, each with the same sets (the first found
 * by the same walk through the suits' subsets), as PoolSplit and SetOf objects of pools.py
 * (configure passes the two classes in). A pool holds 0..3 copies of each suit, so its sets
 * are at most six, each of two to four naturals with at most two jokers (max_set 3 or 4):
 * at most twelve jokers in all.
 *
 * Splits are kept across calls, by (pool, jokerish suits, points, max_set, every), in an
 * open-addressing table of pointers emptied only between calls (as the move rows are), once it
 * holds more than SPLITS_MOST keys: a call keeps pointers to them while it runs.
 */

#define PS_SUITS SUITS
#define PS_SETS_MOST 6     /* a pool of at most 12 cards, sets of at least 2 naturals */
#define PS_JOKERS_MOST 12  /* six sets of two naturals, two jokers each */
#define PS_TOTALS (PS_JOKERS_MOST + 1)
#define PS_Y_MOST 256      /* pools: four 2-bit counts */
#define SPLITS_MOST (1 << 15)

static PyObject *pool_split_type = NULL, *set_of_type = NULL; /* pools.PoolSplit, pools.SetOf */

typedef struct {
    uint8_t suits; /* bit s: a natural of suit s */
    uint8_t jokers;
} PsSet;

typedef struct {
    uint8_t n;
    PsSet set[PS_SETS_MOST];
} PsSets;

/* pools._partitions(y, max_set): by total jokers, the sets first found covering y exactly. */
typedef struct {
    uint16_t found; /* bit t: a way with t jokers */
    uint8_t order[PS_TOTALS]; /* the totals in the order found (the dict's) */
    uint8_t n;
    PsSets at[PS_TOTALS];
} PsParts;

static PsParts ps_parts[2][PS_Y_MOST]; /* by max_set - 3, then the pool's bits */
static uint8_t ps_parts_done[2][PS_Y_MOST];

static inline int
ps_size(unsigned mask)
{
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1);
}

/* pools._partitions' walk: the subsets are pools._SUBSETS' (masks 1..15, in that order). */
static void
ps_walk(int rest[PS_SUITS], int start, uint8_t chosen[PS_SETS_MOST], int n_chosen, int max_set, PsParts *found)
{
    if (!rest[0] && !rest[1] && !rest[2] && !rest[3]) {
        int lows[PS_SETS_MOST], highs[PS_SETS_MOST], low_sum = 0, high_sum = 0;
        for (int k = 0; k < n_chosen; k++) {
            int size = ps_size(chosen[k]);
            lows[k] = size < 3 ? 3 - size : 0;
            highs[k] = max_set - size;
            low_sum += lows[k];
            high_sum += highs[k];
        }
        for (int total = low_sum; total <= high_sum; total++) {
            if (found->found >> total & 1)
                continue;
            int extra = total - low_sum;
            PsSets *sets = &found->at[total];
            sets->n = (uint8_t)n_chosen;
            for (int k = 0; k < n_chosen; k++) {
                int add = extra < highs[k] - lows[k] ? extra : highs[k] - lows[k];
                extra -= add;
                sets->set[k] = (PsSet){chosen[k], (uint8_t)(lows[k] + add)};
            }
            found->found |= (uint16_t)(1u << total);
            found->order[found->n++] = (uint8_t)total;
        }
        return;
    }
    for (int i = start; i < 15; i++) {
        unsigned mask = (unsigned)i + 1;
        int size = ps_size(mask);
        /* A set of one natural and two jokers is the same cards as a padded run: skip it. */
        if (size < 2 || size > max_set)
            continue;
        int fits = 1;
        for (int s = 0; s < PS_SUITS; s++)
            fits = fits && (!(mask >> s & 1) || rest[s] > 0);
        if (!fits)
            continue;
        for (int s = 0; s < PS_SUITS; s++)
            rest[s] -= mask >> s & 1;
        chosen[n_chosen] = (uint8_t)mask;
        ps_walk(rest, i, chosen, n_chosen + 1, max_set, found);
        for (int s = 0; s < PS_SUITS; s++)
            rest[s] += mask >> s & 1;
    }
}

static const PsParts *
ps_partitions(int y_bits, int max_set)
{
    PsParts *parts = &ps_parts[max_set - 3][y_bits];
    if (!ps_parts_done[max_set - 3][y_bits]) {
        memset(parts, 0, sizeof(*parts));
        int rest[PS_SUITS] = {y_bits & 3, y_bits >> 2 & 3, y_bits >> 4 & 3, y_bits >> 6 & 3};
        uint8_t chosen[PS_SETS_MOST];
        ps_walk(rest, 0, chosen, 0, max_set, parts);
        ps_parts_done[max_set - 3][y_bits] = 1;
    }
    return parts;
}

/* One split found, before it becomes a PoolSplit. */
typedef struct {
    int jokers, loose_points, extension, y_bits;
} PsFound;

static PyObject *
ps_set_of(const PsSet *set)
{
    PyObject *suits = PyTuple_New(ps_size(set->suits));
    if (!suits)
        return NULL;
    for (int s = 0, k = 0; s < PS_SUITS; s++) {
        if (set->suits >> s & 1)
            PyTuple_SET_ITEM(suits, k++, PyLong_FromLong(s)); /* (small ints: never NULL) */
    }
    PyObject *jokers = PyLong_FromLong(set->jokers);
    PyObject *out = jokers ? PyObject_CallFunctionObjArgs(set_of_type, suits, jokers, NULL) : NULL;
    Py_DECREF(suits);
    Py_XDECREF(jokers);
    return out;
}

/* A PoolSplit of pools.py for a split found in pool ``x``: a new reference. */
static PyObject *
ps_pool_split(const PsFound *f, const int x[PS_SUITS], int max_set)
{
    const PsSets *sets = &ps_partitions(f->y_bits, max_set)->at[f->jokers];
    PyObject *set_tuple = PyTuple_New(sets->n);
    if (!set_tuple)
        return NULL;
    for (int k = 0; k < sets->n; k++) {
        PyObject *item = ps_set_of(&sets->set[k]);
        if (!item) {
            Py_DECREF(set_tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(set_tuple, k, item);
    }
    int y = f->y_bits;
    PyObject *loose = Py_BuildValue("(iiii)", x[0] - (y & 3), x[1] - (y >> 2 & 3), x[2] - (y >> 4 & 3),
                                    x[3] - (y >> 6 & 3));
    PyObject *out = loose ? PyObject_CallFunction(pool_split_type, "iiOOO", f->jokers, f->loose_points,
                                                  f->extension ? Py_True : Py_False, set_tuple, loose)
                          : NULL;
    Py_DECREF(set_tuple);
    Py_XDECREF(loose);
    return out;
}

static int
ps_by_key(const void *a, const void *b)
{
    const PsFound *p = a, *q = b;
    if (p->jokers != q->jokers)
        return p->jokers < q->jokers ? -1 : 1;
    return (p->loose_points > q->loose_points) - (p->loose_points < q->loose_points);
}

#define PS_FOUND_MOST (PS_TOTALS * PS_TOTALS)

/* pools.pool_splits, as records: the splits in order into ``out``; their number. */
static int
ps_find(const int x[PS_SUITS], const int jokerish[PS_SUITS], long points, int max_set, int every,
        PsFound out[PS_FOUND_MOST])
{
    int low[PS_SUITS];
    for (int s = 0; s < PS_SUITS; s++)
        low[s] = jokerish[s] ? x[s] : 0; /* a joker card goes to the pool only to sit in a set */
    int n = 0;
    PsFound best[PS_TOTALS], first_extra[PS_TOTALS]; /* by jokers */
    int has_best[PS_TOTALS] = {0};
    uint16_t extra = 0; /* bit j: an extension with j jokers (the first found is kept) */
    for (int y0 = low[0]; y0 <= x[0]; y0++)
        for (int y1 = low[1]; y1 <= x[1]; y1++)
            for (int y2 = low[2]; y2 <= x[2]; y2++)
                for (int y3 = low[3]; y3 <= x[3]; y3++) {
                    int y_bits = y0 | y1 << 2 | y2 << 4 | y3 << 6;
                    const PsParts *parts = ps_partitions(y_bits, max_set);
                    if (!parts->found)
                        continue;
                    int loose_points =
                        (int)((x[0] - y0 + x[1] - y1 + x[2] - y2 + x[3] - y3) * points);
                    int fewest = __builtin_ctz(parts->found);
                    for (int k = 0; k < parts->n; k++) {
                        int jokers = parts->order[k];
                        PsFound f = {jokers, loose_points, jokers > fewest, y_bits};
                        if (every) {
                            int seen = 0;
                            for (int i = 0; i < n && !seen; i++)
                                seen = out[i].jokers == jokers && out[i].loose_points == loose_points;
                            if (!seen)
                                out[n++] = f;
                        }
                        else if (jokers == fewest) {
                            if (!has_best[jokers] || loose_points < best[jokers].loose_points)
                                best[jokers] = f;
                            has_best[jokers] = 1;
                        }
                        else if (loose_points == 0 && !(extra >> jokers & 1)) {
                            extra |= (uint16_t)(1u << jokers);
                            first_extra[jokers] = f;
                        }
                    }
                }
    if (every) {
        qsort(out, (size_t)n, sizeof(PsFound), ps_by_key);
        return n;
    }
    uint16_t zero = 0;
    for (int j = 0; j < PS_TOTALS; j++) {
        if (has_best[j] && (!n || best[j].loose_points < out[n - 1].loose_points)) {
            out[n++] = best[j];
            if (!best[j].loose_points)
                zero |= (uint16_t)(1u << j);
        }
    }
    for (int j = 0; j < PS_TOTALS; j++) { /* the extensions where no best split is free of loose cards */
        if ((extra & ~zero) >> j & 1)
            out[n++] = first_extra[j];
    }
    return n;
}

/* ------------------------------------------------------------------ the splits kept */

typedef struct {
    uint32_t key;  /* 0: empty (a kept key has bit 31 set) */
    SplitSet *set; /* (its own allocation: growing the table moves no set a caller holds) */
} PsKept;

static PsKept *ps_table = NULL;
static size_t ps_mask = 0, ps_count = 0;
static void ps_free(SplitSet *set);

static void
splits_clear(void)
{
    if (!ps_table)
        return;
    for (size_t i = 0; i <= ps_mask; i++) {
        if (ps_table[i].key) {
            ps_free(ps_table[i].set);
            ps_table[i] = (PsKept){0, NULL};
        }
    }
    ps_count = 0;
}

static inline size_t
ps_hash(uint32_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ h >> 29);
}

static PsKept *
ps_slot(uint32_t key)
{
    for (size_t i = ps_hash(key) & ps_mask;; i = (i + 1) & ps_mask) {
        if (!ps_table[i].key || ps_table[i].key == key)
            return &ps_table[i];
    }
}

static int
ps_grow(void)
{
    size_t size = ps_table ? (ps_mask + 1) * 2 : (1 << 10);
    PsKept *table = PyMem_Calloc(size, sizeof(PsKept));
    if (!table) {
        PyErr_NoMemory();
        return -1;
    }
    PsKept *old = ps_table;
    size_t old_size = old ? ps_mask + 1 : 0;
    ps_table = table;
    ps_mask = size - 1;
    for (size_t i = 0; i < old_size; i++) {
        if (old[i].key)
            *ps_slot(old[i].key) = old[i];
    }
    PyMem_Free(old);
    return 0;
}

/* The splits of pool ``x_bits`` (four 2-bit counts) with the suits of ``jokerish_bits`` joker
 * cards, kept: borrowed, valid until the table is emptied (between calls only). */
static const SplitSet *
splits_of(int x_bits, int jokerish_bits, long points, int max_set, int every)
{
    if (points < 0 || points > 1000 || max_set < 3 || max_set > 4) {
        PyErr_Format(PyExc_ValueError, "pool splits: points %ld (0..1000), max_set %d (3 or 4)", points, max_set);
        return NULL;
    }
    uint32_t key = (uint32_t)x_bits | (uint32_t)jokerish_bits << 8 | (uint32_t)(every != 0) << 12 |
                   (uint32_t)(max_set - 3) << 13 | (uint32_t)points << 14 | 1u << 31;
    if (ps_table) {
        PsKept *kept = ps_slot(key);
        if (kept->key)
            return kept->set;
    }
    int x[PS_SUITS], jokerish[PS_SUITS];
    for (int s = 0; s < PS_SUITS; s++) {
        x[s] = x_bits >> 2 * s & 3;
        jokerish[s] = jokerish_bits >> s & 1;
    }
    PsFound found[PS_FOUND_MOST];
    int n;
    if (!x_bits) {
        found[0] = (PsFound){0, 0, 0, 0};
        n = 1;
    }
    else {
        n = ps_find(x, jokerish, points, max_set, every, found);
    }
    PyObject *owner = PyTuple_New(n);
    Split *split = PyMem_Malloc(sizeof(Split) * (size_t)(n ? n : 1));
    SplitSet *set = PyMem_Malloc(sizeof(SplitSet));
    if (!owner || !split || !set) {
        Py_XDECREF(owner);
        PyMem_Free(split);
        PyMem_Free(set);
        PyErr_NoMemory();
        return NULL;
    }
    *set = (SplitSet){owner, split, n};
    for (int i = 0; i < n; i++) {
        PyObject *obj = ps_pool_split(&found[i], x, max_set);
        if (!obj) {
            ps_free(set);
            return NULL;
        }
        PyTuple_SET_ITEM(owner, i, obj);
        split[i] = (Split){obj, found[i].jokers, found[i].loose_points, found[i].extension};
    }
    if ((!ps_table || (ps_count + 1) * 2 > ps_mask + 1) && ps_grow() < 0) {
        ps_free(set);
        return NULL;
    }
    PsKept *kept = ps_slot(key);
    if (kept->key) { /* a finaliser run while the objects were made called in for the same */
        ps_free(set);
        return kept->set;
    }
    *kept = (PsKept){key, set};
    ps_count++;
    return set;
}

static void
ps_free(SplitSet *set)
{
    Py_DECREF(set->owner); /* (a tuple drops the items it holds; the rest are NULL) */
    PyMem_Free(set->split);
    PyMem_Free(set);
}

static int
ps_bits(PyObject *tuple, int is_bool, int *out)
{
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != PS_SUITS) {
        PyErr_SetString(PyExc_TypeError, is_bool ? "jokerish: a tuple of 4 bools" : "a pool: a tuple of 4 counts");
        return -1;
    }
    int bits = 0;
    for (int s = 0; s < PS_SUITS; s++) {
        PyObject *item = PyTuple_GET_ITEM(tuple, s);
        if (is_bool) {
            int b = PyObject_IsTrue(item);
            if (b < 0)
                return -1;
            bits |= b << s;
        }
        else {
            long v;
            if (small_int(item, 0, 3, "a pool's copies", &v) < 0)
                return -1;
            bits |= (int)v << 2 * s;
        }
    }
    *out = bits;
    return 0;
}

/* pools.pool_splits(x, jokerish, points, max_set, every=False), from the splits kept (for
 * the tests: the sweep reads them in C). */
static PyObject *
pool_splits(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs < 4 || nargs > 5) {
        PyErr_SetString(PyExc_TypeError, "pool_splits(x, jokerish, points, max_set, every=False)");
        return NULL;
    }
    int x_bits, jokerish_bits, every = 0;
    long points, max_set;
    if (ps_bits(args[0], 0, &x_bits) < 0 || ps_bits(args[1], 1, &jokerish_bits) < 0 ||
        small_int(args[2], 0, 1000, "points", &points) < 0 || small_int(args[3], 3, 4, "max_set", &max_set) < 0)
        return NULL;
    if (nargs == 5 && (every = PyObject_IsTrue(args[4])) < 0)
        return NULL;
    if (active_calls == 0 && ps_count > SPLITS_MOST)
        splits_clear();
    active_calls++;
    const SplitSet *set = splits_of(x_bits, jokerish_bits, points, (int)max_set, every);
    active_calls--;
    return set ? Py_NewRef(set->owner) : NULL;
}
