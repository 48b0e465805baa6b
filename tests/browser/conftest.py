"""The browser tests' fixtures (defined with their helpers in :mod:`browser.kit`)."""

from browser.kit import browser, players, pytest_runtest_makereport, server_factory  # noqa: F401
