"""The ``ginsight`` command line. Each subcommand lives in its own module, imported only
when it runs, so that ``ginsight hand`` never pays for vision's imports."""
