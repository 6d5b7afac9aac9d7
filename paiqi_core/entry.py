"""The ``paiqi`` command's entry point: Ctrl-C ends it with one line and exit status 130,
whenever it comes.

Importing the commands takes a noticeable time (a few tenths of a second, more on a busy
machine). Python imports an entry point's module before any of its code runs, so this
module (and the package above it) imports almost nothing: its function installs the
Ctrl-C handling first, then imports the commands. The first Ctrl-C stops the command;
from then on the process is only ending (saving what is finished, stopping its workers,
exiting with the status it has), and a further Ctrl-C is ignored.

(``contextlib`` and ``signal`` are not imported: each takes longer to import than all the
rest of this module.)
"""

# the C module under ``signal`` (which imports ``enum``)
import _signal as signal  # type: ignore[import-not-found]
import _thread
import sys

INTERRUPTED = 130  # 128 + SIGINT, as shells report a process stopped by Ctrl-C


def ignore_interrupts() -> None:
    """From here on the process exits with the status it has: a Ctrl-C changes nothing."""
    for _ in range(2):
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the main thread: signals never arrive there
            return
        except OSError:  # a Ctrl-C that came while it was being ignored: ignore it, and set again
            continue
        return


def interrupted(message: str = "interrupted") -> int:
    """Say once that the command was interrupted; the exit status 130. Further Ctrl-C are
    ignored from here on (the command is only ending)."""
    ignore_interrupts()
    try:  # noqa: SIM105
        print(message, file=sys.stderr, flush=True)
    except OSError:
        pass
    return INTERRUPTED


_dropping = [False]  # the hook below is running: a KeyboardInterrupt raised now is dropped


def _first_interrupt(signum: int, frame: object) -> None:
    """The first Ctrl-C stops the command; the command then only ends, and ignores more."""
    if _dropping[0]:  # it would be dropped once more: deliver it after the hook has returned
        _thread.start_new_thread(_interrupt_main, (_thread.get_ident(),))
        return
    ignore_interrupts()
    raise KeyboardInterrupt


def _interrupt_main(main: int) -> None:
    """From another thread: a Ctrl-C for the main thread, as a terminal sends one (a real
    signal, so a main thread waiting in a system call wakes to it)."""
    if hasattr(signal, "pthread_kill"):
        signal.pthread_kill(main, signal.SIGINT)
    else:  # pragma: no cover - Windows
        _thread.interrupt_main()


def _dropped(unraisable: "sys.UnraisableHookArgs") -> None:
    """Python drops an exception raised where it cannot propagate (a weak reference's
    callback such as the import system's module locks, a ``__del__``) and calls this hook.
    A Ctrl-C's ``KeyboardInterrupt`` can land there: the Ctrl-C is then sent again from
    another thread, so it reaches the command once this hook has returned and is never
    lost. Any other exception is reported as Python would."""
    if unraisable.exc_type is None or not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)
        return
    _dropping[0] = True
    try:
        signal.signal(signal.SIGINT, _first_interrupt)
        _thread.start_new_thread(_interrupt_main, (_thread.get_ident(),))
    except ValueError:  # not the main thread: a KeyboardInterrupt there is not the Ctrl-C
        pass
    finally:
        _dropping[0] = False


_pending = [False]  # a Ctrl-C came between this module's import and ``main``


def _early_interrupt(signum: int, frame: object) -> None:
    """A Ctrl-C before ``main`` runs: remembered, and ``main`` ends at once."""
    ignore_interrupts()
    _pending[0] = True


def _arm_early() -> None:
    """In the ``paiqi`` console script, hold a Ctrl-C that comes after this module is
    imported and before the script calls ``main`` (a library importing this module keeps
    Python's own Ctrl-C)."""
    script = sys.argv[0].replace("\\", "/").rsplit("/", 1)[-1] if sys.argv else ""
    if script in ("paiqi", "paiqi.exe", "paiqi-script.py"):
        try:  # noqa: SIM105
            signal.signal(signal.SIGINT, _early_interrupt)
        except ValueError:
            pass


_arm_early()


def main() -> int:
    """Run the ``paiqi`` command line; its exit status (130 for Ctrl-C)."""
    if _pending[0]:
        return interrupted()
    sys.unraisablehook = _dropped
    try:  # noqa: SIM105
        signal.signal(signal.SIGINT, _first_interrupt)
    except ValueError:  # not the main thread: signals never arrive there
        pass
    if _pending[0]:  # it came just before the handler above took over
        return interrupted()
    try:
        from paiqi_core.cli import main as command

        return command()
    except KeyboardInterrupt:
        return interrupted()
    finally:
        ignore_interrupts()
        sys.unraisablehook = sys.__unraisablehook__


if __name__ == "__main__":
    sys.exit(main())
