/* The positions of a sweep in one call: the twin of core.sweep_positions (and of
 * core._position and core.place_at under it), #included by _native.c.
 *
 * core.py is the reference, and this follows it line for line: for each position the layer
 * is marked, each suit that has something to do plays (suit_step, with the place worked out
 * here as core.place_at does), and the position closes (close_position). Those three are the
 * module's own functions, called directly with the tuples their Python callers would pass
 * (a SuitStep holding a Place, a Closing), so that each is defined, and checks its input,
 * in one place; building those tuples of small ints costs little beside a suit's step.
 *
 * What the positions read from the hand comes as a core.SweepPlan, read and checked whole
 * before the first position (wrong lengths, types or numbers out of range: a Python
 * exception).
 */

#define KINDS SUITED_KINDS /* the card kinds of the four suits, suit by suit, Ace first */
#define PLAN_FIELDS 20

/* core.SweepPlan, read. */
typedef struct {
    long need, spend, bound, max_set, padding;
    int exact, replace, buy, aside, joker_groups;
    long mask[KINDS], rank_points[13], supply_after[16], ahead[17];
    long at[4][17], near[4][16], reach[4][16], pure_ok[4][16], bought_starts[4][16];
    PyObject *pure_left; /* owned: a tuple of the plan's rows, each checked */
} SweepPlanC;

/* ``n`` ints within low..high from the sequence ``obj`` (the plan's field ``what``). */
static int
plan_ints(PyObject *obj, Py_ssize_t n, long low, long high, const char *what, long *out)
{
    PyObject *seq = PySequence_Tuple(obj); /* (a list could change as its items are read) */
    if (!seq)
        return -1;
    int status = -1;
    if (PyTuple_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "a sweep plan's %s holds %zd numbers, not %zd", what, n,
                     PyTuple_GET_SIZE(seq));
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (small_int(PyTuple_GET_ITEM(seq, i), low, high, what, &out[i]) < 0)
            goto done;
    }
    status = 0;
done:
    Py_DECREF(seq);
    return status;
}

/* A table of four suits, ``n`` ints each (``out``: 4 rows of ``n``). */
static int
plan_suits(PyObject *obj, Py_ssize_t n, long low, long high, const char *what, long *out)
{
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq)
        return -1;
    int status = -1;
    if (PyTuple_GET_SIZE(seq) != 4) {
        PyErr_Format(PyExc_ValueError, "a sweep plan's %s has a row for each of 4 suits", what);
        goto done;
    }
    for (Py_ssize_t s = 0; s < 4; s++) {
        if (plan_ints(PyTuple_GET_ITEM(seq, s), n, low, high, what, out + s * n) < 0)
            goto done;
    }
    status = 0;
done:
    Py_DECREF(seq);
    return status;
}

/* pure_left: 16 rows of ``spend + 1`` counts, kept as a tuple of its own (that no Python
 * code run by the positions can shorten): each row goes on to a Closing. */
static int
plan_pure_left(PyObject *obj, long spend, PyObject **out)
{
    PyObject *seq = PySequence_Tuple(obj);
    if (!seq)
        return -1;
    if (PyTuple_GET_SIZE(seq) != 16) {
        PyErr_SetString(PyExc_ValueError, "a sweep plan's pure_left has a row for each of 16 positions");
        Py_DECREF(seq);
        return -1;
    }
    long row[128]; /* (spend is at most 127) */
    for (Py_ssize_t p = 0; p < 16; p++) {
        if (plan_ints(PyTuple_GET_ITEM(seq, p), spend + 1, 0, 1000, "pure_left", row) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    *out = seq;
    return 0;
}

static int
read_plan(PyObject *plan, SweepPlanC *c)
{
    c->pure_left = NULL;
    if (!PyTuple_Check(plan) || PyTuple_GET_SIZE(plan) != PLAN_FIELDS) {
        PyErr_SetString(PyExc_TypeError, "plan: a core.SweepPlan");
        return -1;
    }
    if (field_long(plan, 0, 0, 63, "need", &c->need) < 0 || field_long(plan, 1, 0, 127, "spend", &c->spend) < 0 ||
        field_long(plan, 2, -BIG, BIG, "bound", &c->bound) < 0 ||
        field_long(plan, 3, 0, 100, "max_set", &c->max_set) < 0 ||
        field_long(plan, 4, 0, 15, "padding", &c->padding) < 0 || field_bool(plan, 5, &c->exact) < 0 ||
        field_bool(plan, 6, &c->replace) < 0 || field_bool(plan, 7, &c->buy) < 0 ||
        field_bool(plan, 8, &c->aside) < 0 || field_bool(plan, 9, &c->joker_groups) < 0 ||
        plan_ints(PyTuple_GET_ITEM(plan, 10), KINDS, 0, 1, "mask", c->mask) < 0 ||
        plan_ints(PyTuple_GET_ITEM(plan, 11), 13, 0, SETLESS_MOST, "rank_points", c->rank_points) < 0 ||
        plan_ints(PyTuple_GET_ITEM(plan, 12), 16, 0, 1000, "supply_after", c->supply_after) < 0 ||
        plan_ints(PyTuple_GET_ITEM(plan, 13), 17, 0, BIG, "ahead", c->ahead) < 0 ||
        plan_suits(PyTuple_GET_ITEM(plan, 15), 17, 0, 3, "at", &c->at[0][0]) < 0 ||
        plan_suits(PyTuple_GET_ITEM(plan, 16), 16, 0, 1, "near", &c->near[0][0]) < 0 ||
        plan_suits(PyTuple_GET_ITEM(plan, 17), 16, 1, 4, "reach", &c->reach[0][0]) < 0 ||
        plan_suits(PyTuple_GET_ITEM(plan, 18), 16, 0, 1, "pure_ok", &c->pure_ok[0][0]) < 0 ||
        plan_suits(PyTuple_GET_ITEM(plan, 19), 16, 0, 1, "bought_starts", &c->bought_starts[0][0]) < 0)
        return -1;
    return plan_pure_left(PyTuple_GET_ITEM(plan, 14), c->spend, &c->pure_left);
}

/* A new reference to True or False. */
static inline PyObject *
truth(long value)
{
    return Py_NewRef(value ? Py_True : Py_False);
}

/* core.place_at: what suit ``s``'s moves at position ``p`` depend on, as a moves.Place tuple
 * (roles and phase as their numbers); ``setless`` < 0 for None. */
static PyObject *
place_at(const SweepPlanC *plan, int p, int s, int jokers, long setless)
{
    const long *at = plan->at[s];
    long copies = at[p];
    int roles[2];
    if (!jokers)
        roles[0] = roles[1] = R_NATURAL;
    else if (!plan->joker_groups)
        roles[0] = roles[1] = R_EITHER;
    else {
        roles[0] = R_JOKER_ONLY;
        roles[1] = plan->pure_ok[s][p] ? R_PURE_ONLY : R_TUNNELA_ONLY;
    }
    int phase = p == 1 ? PH_FIRST : p == 3 ? PH_LOWMARK : p == 14 ? PH_LAST : p == 15 ? PH_CLOSE : PH_MID;
    PyObject *role_items[2] = {PyLong_FromLong(roles[0]), PyLong_FromLong(roles[1])};
    PyObject *items[13] = {
        PyLong_FromLong(copies),
        plain_tuple(role_items, 2),
        PyLong_FromLong(phase),
        PyLong_FromLong(plan->reach[s][p]),
        PyLong_FromLong(plan->padding),
        truth(plan->exact),
        PyLong_FromLong(p != 13 ? at[p + 1] : -1),
        PyLong_FromLong(p != 12 && p != 15 ? at[p + 2] : -1),
        setless < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(jokers ? -1 : setless),
        PyLong_FromLong(plan->buy && plan->near[s][p] ? 3 - copies : 0),
        truth(plan->replace),
        truth(plan->aside),
        truth(plan->bought_starts[s][p]),
    };
    return plain_tuple(items, 13);
}

/* ``entry(stage, (*items,))``: a core entry point called on a stage with the tuple it takes
   (items are stolen, as plain_tuple steals them). */
static PyObject *
call_on_stage(PyObject *(*entry)(PyObject *, PyObject *const *, Py_ssize_t), PyObject *stage, PyObject **items,
              Py_ssize_t n)
{
    PyObject *argument = plain_tuple(items, n);
    if (!argument)
        return NULL;
    PyObject *args[2] = {stage, argument};
    PyObject *out = entry(NULL, args, 2);
    Py_DECREF(argument);
    return out;
}

/* The stage after suit ``s`` plays at position ``p`` (core.suit_step with its SuitStep). */
static PyObject *
suit_step_at(const SweepPlanC *plan, PyObject *stage, int p, int s, int jokers, long setless, long slack)
{
    PyObject *items[8] = {
        PyLong_FromLong(AT_SUIT[s]),
        PyLong_FromLong(AT_POOLS + 2 * s), /* (packing.AT_POOL: two bits a suit) */
        place_at(plan, p, s, jokers, setless),
        PyLong_FromLong(slack),
        PyLong_FromLong(plan->ahead[p]),
        PyLong_FromLong(plan->bound),
        truth(plan->replace),
        truth(plan->exact),
    };
    return call_on_stage(suit_step, stage, items, 8);
}

/* The next layer (core.close_position with its Closing). */
static PyObject *
close_at(const SweepPlanC *plan, PyObject *stage, int p, const int jokerish[4], int setless, long points,
         long limit)
{
    PyObject *suits[4] = {truth(jokerish[0]), truth(jokerish[1]), truth(jokerish[2]), truth(jokerish[3])};
    PyObject *items[13] = {
        PyLong_FromLong(plan->need),
        PyLong_FromLong(plan->spend),
        Py_NewRef(PyTuple_GET_ITEM(plan->pure_left, p)),
        truth(setless),
        plain_tuple(suits, 4),
        PyLong_FromLong(points),
        PyLong_FromLong(plan->max_set),
        PyLong_FromLong(limit),
        PyLong_FromLong(plan->ahead[p]),
        PyLong_FromLong(plan->bound),
        truth(plan->replace),
        truth(plan->aside),
        truth(plan->exact),
    };
    return call_on_stage(close_position, stage, items, 13);
}

/* Whether no state of ``stage`` has an open run in suit ``s`` (core.idle): -1 on error. */
static int
idle_suit(PyObject *stage, int s)
{
    PyObject *at = PyLong_FromLong(AT_SUIT[s]);
    if (!at)
        return -1;
    PyObject *args[2] = {stage, at};
    PyObject *answer = idle(NULL, args, 2);
    Py_DECREF(at);
    if (!answer)
        return -1;
    int out = answer == Py_True;
    Py_DECREF(answer);
    return out;
}

/* core._position: the stages of position ``p`` (the first from ``layer``) into ``*stages``
 * (a list of five), and the next layer into ``*next``; -1 on error. */
static int
position(const SweepPlanC *plan, int p, PyObject *layer, PyObject **stages, PyObject **next)
{
    int rank = p <= 13 ? p : 1;
    int copies[4], jokerish[4], held = 0;
    for (int s = 0; s < 4; s++) {
        copies[s] = (int)plan->at[s][p];
        jokerish[s] = (int)plan->mask[s * 13 + rank - 1];
        held += copies[s] != 0;
    }
    long points = p > 13 ? 0 : plan->rank_points[rank - 1];
    long limit = plan->supply_after[p];
    PyObject *out = PyList_New(5);
    PyObject *need = PyLong_FromLong(plan->need);
    PyObject *stage = NULL;
    if (!out || !need)
        goto fail;
    PyObject *args[2] = {layer, need};
    stage = marked(NULL, args, 2);
    if (!stage)
        goto fail;
    PyList_SET_ITEM(out, 0, Py_NewRef(stage));
    /* With cards of fewer than two suits here no set can form (see core._position). */
    int setless = held < 2 && !plan->aside;
    for (int s = 0; s < 4; s++) {
        if (!copies[s] && !(plan->buy && plan->near[s][p])) {
            int nothing = idle_suit(stage, s);
            if (nothing < 0)
                goto fail;
            if (nothing) {
                PyList_SET_ITEM(out, s + 1, Py_NewRef(Py_None));
                continue;
            }
        }
        long slack = limit;
        for (int t = s + 1; t < 4; t++)
            slack += jokerish[t] ? copies[t] : 0;
        PyObject *after = suit_step_at(plan, stage, p, s, jokerish[s], setless ? points : -1, slack);
        if (!after)
            goto fail;
        Py_SETREF(stage, after);
        PyList_SET_ITEM(out, s + 1, Py_NewRef(stage));
    }
    *next = close_at(plan, stage, p, jokerish, setless, points, limit);
    if (!*next)
        goto fail;
    Py_DECREF(stage);
    Py_DECREF(need);
    *stages = out;
    return 0;
fail:
    Py_XDECREF(stage);
    Py_XDECREF(need);
    Py_XDECREF(out); /* (a list drops the items it holds; the rest are NULL) */
    return -1;
}

/* core.sweep_positions(layer, plan): the stages of each position and each next layer. */
static PyObject *
sweep_positions(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "sweep_positions(layer, plan)");
        return NULL;
    }
    if (!as_stage(args[0]))
        return NULL;
    SweepPlanC plan;
    if (read_plan(args[1], &plan) < 0)
        return NULL;
    trim_caches(); /* (as suit_step does; it will not while the positions run) */
    PyObject *stages = PyList_New(POSITIONS), *layers = PyList_New(POSITIONS), *out = NULL;
    PyObject *layer = Py_NewRef(args[0]);
    if (!stages || !layers)
        goto done;
    active_calls++; /* (configure waits: the layout must not change between positions) */
    for (int p = 1; p <= POSITIONS; p++) {
        PyObject *here, *next;
        if (position(&plan, p, layer, &here, &next) < 0) {
            active_calls--;
            goto done;
        }
        PyList_SET_ITEM(stages, p - 1, here);
        PyList_SET_ITEM(layers, p - 1, Py_NewRef(next));
        Py_SETREF(layer, next);
    }
    active_calls--;
    out = PyTuple_Pack(2, stages, layers);
done:
    Py_XDECREF(stages);
    Py_XDECREF(layers);
    Py_DECREF(layer);
    Py_DECREF(plan.pure_left);
    return out;
}

/* ------------------------------------------------------------------ a suit's tables */

/* The twin of core.suit_table (and of bounds.groups_after under it): what a sweep reads of one
 * suit holding ``ranks`` (copies of A..K), by position. Places 0..16: ``at`` has nothing at 0
 * and past the King, ``line`` has the Aces again at 14. core.py holds the definitions and
 * stays the reference; the tests compare the two on every suit of the corpora and on random
 * ones. */

#define ST_PLACES 17
#define ST_POSITIONS 16

/* bounds._line_groups: the most disjoint pure groups (runs of three, tunnelas) among the
 * copies line[0 .. n - 1] (0..3 each); with ``suffix``, also those of each suffix: suffix[q]
 * for the places q .. n - 1. best[a][b]: the most groups of the places from q on when a
 * copies at q and b at q + 1 already sit in runs begun lower; at q, z more runs begin (taking
 * a copy at q + 1 and q + 2 each), or its three copies make a tunnela. */
static int
st_line_groups(const int *line, int n, int *suffix)
{
    int after[4][4] = {{0}}, best[4][4] = {{0}};
    for (int q = n - 1; q >= 0; q--) {
        int here = line[q], next1 = q + 1 < n ? line[q + 1] : 0, next2 = q + 2 < n ? line[q + 2] : 0;
        for (int a = 0; a <= here; a++)
            for (int b = 0; b <= next1; b++) {
                int free = here - a, most = 0;
                int most_z = free < next1 - b ? free : next1 - b;
                if (next2 < most_z)
                    most_z = next2;
                for (int z = 0; z <= most_z; z++)
                    if (after[b + z][z] + z > most)
                        most = after[b + z][z] + z;
                if (free == 3 && after[b][0] + 1 > most)
                    most = after[b][0] + 1;
                best[a][b] = most;
            }
        memcpy(after, best, sizeof(after));
        if (suffix)
            suffix[q] = after[0][0];
    }
    return after[0][0];
}

/* bounds.groups_after: for each position p, the most pure groups of the places after p of a
 * 17-place line (the Aces again at 14; for p >= 13, the Aces at 14 alone). */
static void
st_groups_after(const int line[ST_PLACES], int out[ST_POSITIONS])
{
    int suffix[15];
    st_line_groups(line, 15, suffix);
    for (int q = 1; q <= 14; q++)
        out[q - 1] = suffix[q];
    out[14] = out[15] = out[13];
}

/* A tuple of n ints (as_bool: of bools). */
static PyObject *
st_tuple(const int *values, int n, int as_bool)
{
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = as_bool ? Py_NewRef(values[i] ? Py_True : Py_False) : PyLong_FromLong(values[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* A suit's tables (core.suit_table's answer) for ``ranks`` (13 counts, 0..3 each). */
typedef struct {
    int at[ST_PLACES], line[ST_PLACES], reach[ST_POSITIONS], pure_ok[ST_POSITIONS], near[ST_POSITIONS];
    int groups[ST_POSITIONS];
} SuitTableC;

static void
st_compute(const int ranks[13], SuitTableC *t)
{
    memset(t, 0, sizeof(*t));
    for (int r = 0; r < 13; r++)
        t->at[r + 1] = ranks[r];
    for (int p = 0; p < 14; p++)
        t->line[p] = t->at[p];
    t->line[14] = t->at[1];
    int held[ST_PLACES + 2] = {0};
    for (int p = 0; p < ST_PLACES; p++)
        held[p] = t->line[p] != 0;
    for (int p = 0; p < ST_POSITIONS; p++) {
        t->reach[p] = held[p + 1] ? 1 : held[p + 2] ? 2 : held[p + 3] ? 3 : 4;
        t->pure_ok[p] = (3 <= p && p <= 14 && held[p - 2] && held[p - 1]) ||
                        (2 <= p && p <= 13 && held[p - 1] && held[p + 1]) ||
                        (1 <= p && p <= 12 && held[p + 1] && held[p + 2]) || (p == 1 && held[12] && held[13]);
        int any = 0;
        if (1 <= p && p <= 13)
            for (int q = p - 2 < 1 ? 1 : p - 2; q <= (p + 2 < 14 ? p + 2 : 14); q++)
                any |= held[q];
        t->near[p] = any || ((p == 12 || p == 13) && held[1]);
    }
    st_groups_after(t->line, t->groups);
}

/* core.suit_table(ranks) -> (at, line, reach, pure_ok, near, groups_after) */
static PyObject *
suit_table(PyObject *Py_UNUSED(module), PyObject *ranks)
{
    PyObject *seq = PySequence_Fast(ranks, "ranks");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 13) {
        PyErr_Format(PyExc_ValueError, "ranks: 13 counts expected, not %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    int counts[13];
    for (int r = 0; r < 13; r++) {
        long n;
        if (small_int(PySequence_Fast_GET_ITEM(seq, r), 0, 3, "ranks", &n) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        counts[r] = (int)n;
    }
    Py_DECREF(seq);
    SuitTableC t;
    st_compute(counts, &t);
    PyObject *parts[6] = {
        st_tuple(t.at, ST_PLACES, 0),         st_tuple(t.line, ST_PLACES, 0),    st_tuple(t.reach, ST_POSITIONS, 0),
        st_tuple(t.pure_ok, ST_POSITIONS, 1), st_tuple(t.near, ST_POSITIONS, 1), st_tuple(t.groups, ST_POSITIONS, 0),
    };
    PyObject *out = NULL;
    if (parts[0] && parts[1] && parts[2] && parts[3] && parts[4] && parts[5])
        out = PyTuple_Pack(6, parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]);
    for (int i = 0; i < 6; i++)
        Py_XDECREF(parts[i]);
    return out;
}

/* ------------------------------------------------------------------ a hand's plan */

/* bounds.loose_ahead: for each position, the points sure to be left loose among the cards
 * after it (``free``: cards that may be put aside at no cost). */
static void
loose_ahead_c(const int counts[53], const int mask[53], const long rank_points[13], int free, long out[17])
{
    memset(out, 0, sizeof(long) * 17);
    int jokers = 0;
    for (int i = 0; i < 53; i++)
        jokers += mask[i] ? counts[i] : 0;
    int saved = (jokers >= 2 ? jokers : 0) + free;
    int rank_of[3 * 52];
    long points_of[3 * 52];
    int n = 0;
    for (int i = 0; i < 52; i++) {
        if (!counts[i] || mask[i] || counts[i] == 3)
            continue;
        int suit = i / 13, rank = i % 13 + 1, near = 0;
        for (int t = 0; t < 4 && !near; t++) /* its rank in another suit */
            near = t != suit && counts[t * 13 + rank - 1];
        int places[2] = {rank, rank == 1 ? 14 : rank}; /* (an Ace: both ends) */
        for (int k = 0; k < 2 && !near; k++) { /* its suit within two places */
            for (int q = places[k] - 2; q <= places[k] + 2 && !near; q++) {
                if (q >= 1 && q <= 14 && q != places[0] && q != places[1])
                    near = counts[suit * 13 + (q - 1) % 13] != 0;
            }
        }
        if (near)
            continue;
        for (int k = 0; k < counts[i]; k++) {
            rank_of[n] = rank;
            points_of[n++] = rank_points[rank - 1];
        }
    }
    if (n <= saved) /* (the usual case: then none is sure to be loose) */
        return;
    for (int p = 0; p < 16; p++) {
        long after[3 * 52];
        int m = 0;
        for (int k = 0; k < n; k++) {
            if (rank_of[k] > p)
                after[m++] = points_of[k];
        }
        for (int a = 1; a < m; a++) { /* (descending: a few cards at most) */
            long v = after[a];
            int b = a - 1;
            for (; b >= 0 && after[b] < v; b--)
                after[b + 1] = after[b];
            after[b + 1] = v;
        }
        long sum = 0;
        for (int k = saved; k < m; k++)
            sum += after[k];
        out[p] = sum;
    }
}

/* A tuple of n longs. */
static PyObject *
hp_tuple(const long *values, int n)
{
    PyObject *out = PyTuple_New(n);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *item = PyLong_FromLong(values[i]);
        if (!item) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, item);
    }
    return out;
}

/* A tuple of four rows (a suit each) of n ints (as_bool: of bools); all_true: every one True. */
static PyObject *
hp_suits(const SuitTableC t[4], size_t offset, int n, int as_bool, int all_true)
{
    int ones[ST_PLACES];
    for (int i = 0; i < ST_PLACES; i++)
        ones[i] = 1;
    PyObject *rows[4];
    for (int s = 0; s < 4; s++)
        rows[s] = st_tuple(all_true ? ones : (const int *)((const char *)&t[s] + offset), n, as_bool);
    PyObject *out = rows[0] && rows[1] && rows[2] && rows[3] ? PyTuple_Pack(4, rows[0], rows[1], rows[2], rows[3]) : NULL;
    for (int s = 0; s < 4; s++)
        Py_XDECREF(rows[s]);
    return out;
}

/* core.hand_plan(counts, mask, need, joker_groups, max_set, replace, aside, bound): the plan
 * as a plain tuple of the SweepPlan's fields, in its order. */
static PyObject *
hand_plan(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (need_configured() < 0)
        return NULL;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "hand_plan(counts, mask, need, joker_groups, max_set, replace, aside, bound)");
        return NULL;
    }
    PyObject *counts_seq = PySequence_Fast(args[0], "counts: a sequence of 53 counts");
    PyObject *mask_seq = counts_seq ? PySequence_Fast(args[1], "mask: a sequence of 53 flags") : NULL;
    PyObject *out = NULL;
    int counts[53], mask[53];
    long need, max_set, bound;
    int joker_groups, replace, aside;
    if (!mask_seq)
        goto done;
    if (PySequence_Fast_GET_SIZE(counts_seq) != 53 || PySequence_Fast_GET_SIZE(mask_seq) != 53) {
        PyErr_SetString(PyExc_ValueError, "hand_plan: 53 counts and 53 flags");
        goto done;
    }
    for (int i = 0; i < 53; i++) {
        long n;
        int flag = PyObject_IsTrue(PySequence_Fast_GET_ITEM(mask_seq, i));
        if (small_int(PySequence_Fast_GET_ITEM(counts_seq, i), 0, i < 52 ? 3 : 255, "a card's count", &n) < 0 ||
            flag < 0)
            goto done;
        counts[i] = (int)n;
        mask[i] = flag;
    }
    if (small_int(args[2], 0, 63, "need", &need) < 0 || (joker_groups = PyObject_IsTrue(args[3])) < 0 ||
        small_int(args[4], 3, 4, "max_set", &max_set) < 0 || (replace = PyObject_IsTrue(args[5])) < 0 ||
        (aside = PyObject_IsTrue(args[6])) < 0 || small_int(args[7], 0, 127, "bound", &bound) < 0)
        goto done;
    long rank_points[13], supply_after[16] = {0}, ahead[17] = {0};
    for (int r = 0; r < 13; r++)
        rank_points[r] = replace ? 1 : CARD_POINTS[r];
    /* The cards bought (replace) or put aside (aside: exactly one) at most. */
    long spend = replace ? bound : aside ? 1 : 0;
    /* Joker cards still to come after each position (Aces are all decided at position 1). */
    int joker_cards[53], most_jokers = counts[52];
    for (int i = 0; i < 53; i++)
        joker_cards[i] = mask[i] ? counts[i] : 0;
    for (int i = 0; i < 52; i++)
        most_jokers += joker_cards[i];
    for (int p = 13; p > 1; p--)
        supply_after[p - 1] = supply_after[p] + joker_cards[p - 1] + joker_cards[13 + p - 1] +
                              joker_cards[26 + p - 1] + joker_cards[39 + p - 1];
    SuitTableC tables[4];
    for (int s = 0; s < 4; s++)
        st_compute(counts + s * 13, &tables[s]);
    /* At position 1: whether keeping an Ace for a run ending at Ace-high can help (see
     * core.hand_plan). */
    int lowest = replace ? 10 : (13 - most_jokers > 10 ? 13 - most_jokers : 10);
    for (int s = 0; s < 4; s++) {
        int any = 0;
        for (int q = lowest; q < 14; q++)
            any |= tables[s].at[q] != 0;
        tables[s].reach[1] = any ? 1 : 4;
    }
    if (!replace)
        loose_ahead_c(counts, mask, rank_points, aside ? 1 : 0, ahead);
    PyObject *pure_left = PyTuple_New(16);
    if (!pure_left)
        goto done;
    for (int p = 0; p < 16; p++) {
        long most = tables[0].groups[p] + tables[1].groups[p] + tables[2].groups[p] + tables[3].groups[p], row[128];
        for (long b = 0; b <= spend; b++)
            row[b] = most;
        PyObject *item = hp_tuple(row, (int)spend + 1);
        if (!item) {
            Py_DECREF(pure_left);
            goto done;
        }
        PyTuple_SET_ITEM(pure_left, p, item);
    }
    PyObject *items[20] = {
        PyLong_FromLong(need),
        PyLong_FromLong(spend),
        PyLong_FromLong(bound),
        PyLong_FromLong(max_set),
        PyLong_FromLong(0),
        truth(0),
        truth(replace),
        truth(0),
        truth(aside),
        truth(joker_groups),
        st_tuple(mask, 52, 1),
        hp_tuple(rank_points, 13),
        hp_tuple(supply_after, 16),
        hp_tuple(ahead, 17),
        pure_left,
        hp_suits(tables, offsetof(SuitTableC, at), ST_PLACES, 0, 0),
        hp_suits(tables, offsetof(SuitTableC, near), ST_POSITIONS, 1, 0),
        hp_suits(tables, offsetof(SuitTableC, reach), ST_POSITIONS, 0, 0),
        hp_suits(tables, offsetof(SuitTableC, pure_ok), ST_POSITIONS, 1, replace),
        hp_suits(tables, 0, ST_POSITIONS, 1, 1), /* bought_starts: all true (no card bought) */
    };
    out = plain_tuple(items, 20); /* (NULL, dropping the rest, if any is NULL) */
done:
    Py_XDECREF(counts_seq);
    Py_XDECREF(mask_seq);
    return out;
}
