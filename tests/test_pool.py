"""The one worker pool (plies.pool) on local processes: results in order or as they finish, a
bounded queue, errors raised in the driver, dead workers replaced, and no worker left."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies.errors import PliesError, SpecError
from plies.pool import MOST_DEATHS, Pool

_SETUP: dict[str, int] = {}


def remember(offset: int) -> None:
    """A worker's setup: what its tasks share."""
    _SETUP["offset"] = offset


def offset_square(number: int) -> tuple[int, int]:
    return number * number + _SETUP["offset"], os.getpid()


def square(number: int) -> int:
    return number * number


def fail_on_seven(number: int) -> int:
    if number == 7:
        raise ValueError("seven is not allowed")
    return number


def die_once(task: tuple[int, str]) -> int:
    """Kill this worker the first time it meets task 3 (the marker file remembers)."""
    number, marker = task
    if number == 3 and not Path(marker).exists():
        Path(marker).touch()
        os._exit(9)
    return number


def die(number: int) -> int:
    os._exit(9)


def fail_setup() -> None:
    raise SpecError("this worker cannot start")


def test_results_come_in_order_from_workers_each_set_up_once() -> None:
    with Pool(2, setup=remember, setup_args=(1000,)) as pool:
        found = list(pool.ordered(offset_square, range(40)))
    assert [value for value, _ in found] == [n * n + 1000 for n in range(40)]
    workers = {pid for _, pid in found}
    assert len(workers) == 2 and os.getpid() not in workers


def test_one_worker_runs_in_this_process() -> None:
    with Pool(1, setup=remember, setup_args=(5,)) as pool:
        assert pool.here
        assert list(pool.ordered(offset_square, [2])) == [(9, os.getpid())]


def test_tasks_are_drawn_a_few_at_a_time() -> None:
    drawn: list[int] = []

    def tasks() -> Iterator[int]:
        for number in range(1000):
            drawn.append(number)
            yield number

    with Pool(2, in_flight=2) as pool:
        results = pool.results(square, tasks())
        next(results)
        assert len(drawn) <= 2 * 2 + 1  # two in flight per worker, one refilled
        results.close()


def test_a_task_error_is_raised_in_the_driver_and_ends_the_workers() -> None:
    pool = Pool(2)
    with pytest.raises(ValueError, match="seven is not allowed") as raised:
        list(pool.ordered(fail_on_seven, range(20)))
    assert any("in the worker" in note for note in raised.value.__notes__)
    assert pool._backend is None  # the workers were ended
    assert list(pool.ordered(square, range(3))) == [0, 1, 4]  # new ones start when asked
    pool.close()


def test_a_dead_worker_is_replaced_and_its_tasks_run_again(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    with Pool(2) as pool:
        found = sorted(pool.results(die_once, [(n, marker) for n in range(12)]))
    assert Path(marker).exists() and found == [(n, n) for n in range(12)]


def test_workers_dying_again_and_again_stop_the_run() -> None:
    with Pool(2) as pool, pytest.raises(PliesError, match=f"died {MOST_DEATHS} times in a row"):
        list(pool.results(die, range(4)))


def test_a_failed_setup_is_raised() -> None:
    with Pool(2, setup=fail_setup) as pool, pytest.raises(SpecError, match="cannot start"):
        list(pool.results(square, range(4)))


def test_stopping_early_ends_every_worker() -> None:
    pool = Pool(2)
    results = pool.results(square, range(100))
    next(results)
    assert pool._backend is not None
    processes = [seat.process for seat in pool._backend.seats]  # type: ignore[attr-defined]
    results.close()
    assert not any(process.is_alive() for process in processes)


@pytest.mark.parametrize("workers", [0, -1, 10**6])
def test_a_bad_number_of_workers_is_refused(workers: int) -> None:
    with pytest.raises(SpecError, match="--workers"):
        Pool(workers)


def test_a_cluster_started_here_for_the_run_serves_the_pool() -> None:
    """``--ray local``: a cluster of this machine alone, on 127.0.0.1, started and stopped
    around the run; the setup reaches every actor and the results come in order. In a
    process of its own, apart from the test session's cluster."""
    pytest.importorskip("ray", reason="Ray is in the 'distributed' extra")
    code = (
        "import json\n"
        "from plies.pool import Pool, ray_cluster\n"
        "from tests.test_pool import offset_square, remember\n"
        "with ray_cluster('local') as ray:\n"
        "    with Pool(2, setup=remember, setup_args=(7,), ray_address='local') as pool:\n"
        "        found = [value for value, _ in pool.ordered(offset_square, range(12))]\n"
        "    address = ray.util.get_node_ip_address()\n"
        "print(json.dumps([found, address, ray.is_initialized()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    found, address, connected = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == [n * n + 7 for n in range(12)] and address == "127.0.0.1" and not connected
