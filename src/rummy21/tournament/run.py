"""Running a tournament's shoes: in this process, in local worker processes, or as Ray tasks.

Every backend plays the same shoes the same way (:func:`~rummy21.tournament.play.play_shoe`
needs nothing but the settings and the shoe's number) and yields each record as it finishes,
in whatever order; the caller puts them in order. Ray is optional (``pip install
'rummy21[ray]'``) and imported only when asked for.

>>> from rummy21.tournament.settings import Settings
>>> settings = Settings(("random", "random"), players=2, deals=2, seed=1, turn_limit=20)
>>> sorted(r.number for r in run_shoes(settings, [0, 1], jobs=1))
[0, 1]
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Literal

from rummy21.tournament.play import play_shoe
from rummy21.tournament.records import ShoeRecord
from rummy21.tournament.settings import Settings
from rummy21.workers import close, fork_method, lifeline, start_worker, usable_cores

Backend = Literal["local", "ray"]
BACKENDS: tuple[Backend, ...] = ("local", "ray")

MAX_JOBS = 256
"""The most local worker processes ``--jobs`` may ask for (as ``analyze --batch``)."""

RAY_MISSING = "the ray backend needs Ray, which is not installed: pip install 'rummy21[ray]'"


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot run here (Ray not installed, no cluster at the address)."""


def run_shoes(
    settings: Settings,
    numbers: Sequence[int],
    *,
    jobs: int = 1,
    backend: Backend = "local",
    address: str | None = None,
) -> Iterator[ShoeRecord]:
    """Play shoes ``numbers`` of ``settings``' tournament; yield each record as it is done.

    ``jobs``: local worker processes (0: one per core; 1: this process); with Ray, the CPUs
    of the local Ray it starts (0: all), ignored on a cluster (``address``)."""
    if not numbers:
        return  # (nothing to play: no workers, no Ray)
    if backend == "ray":
        yield from _on_ray(settings, numbers, jobs, address)
        return
    workers = min(jobs or usable_cores(), len(numbers))
    if workers <= 1:
        for number in numbers:
            yield play_shoe(settings, number)
        return
    yield from _in_processes(settings, numbers, workers)


def _in_processes(settings: Settings, numbers: Sequence[int], workers: int) -> Iterator[ShoeRecord]:
    line = lifeline()  # (workers leave when this process is gone, kill -9 included)
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(fork_method()),
        initializer=start_worker,
        initargs=(line,),
    )
    try:
        # (a few shoes ahead of the workers, not all: an interrupted run stops soon)
        waiting = iter(numbers)
        running: set[Future[ShoeRecord]] = set()
        for number in waiting:
            running.add(pool.submit(play_shoe, settings, number))
            if len(running) >= 2 * workers:
                break
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: f.result().number):
                yield future.result()
                following = next(waiting, None)
                if following is not None:
                    running.add(pool.submit(play_shoe, settings, following))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        close(line)


def _on_ray(
    settings: Settings, numbers: Sequence[int], jobs: int, address: str | None
) -> Iterator[ShoeRecord]:
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(RAY_MISSING) from None
    started = not ray.is_initialized()
    if started:
        options: dict[str, Any] = {
            "address": address,
            "include_dashboard": False,
            "log_to_driver": False,
            "configure_logging": False,
        }
        if address is None and jobs:
            options["num_cpus"] = jobs
        try:
            ray.init(**options)
        except (ConnectionError, RuntimeError, ValueError) as error:
            where = f"at {address}" if address else "here"
            raise BackendUnavailable(f"cannot start or reach Ray {where}: {error}") from None
    try:
        task = ray.remote(play_shoe)
        waiting = [task.remote(settings, number) for number in numbers]
        while waiting:
            done, waiting = ray.wait(waiting, num_returns=1)
            record: ShoeRecord = ray.get(done[0])
            yield record
    finally:
        if started:
            ray.shutdown()
