#!/usr/bin/env bash
# Make sure the system programs the browser and PostgreSQL tests drive are installed:
# Chromium (+ its driver) and the PostgreSQL server binaries. Idempotent: does nothing when they are there.
#
# As root with apt-get (CI on a fresh Debian machine) it installs the missing Debian packages itself.
# Otherwise it says what to install and carries on: those tests then skip locally, and fail under CI=true.
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
# Debian keeps the server binaries (initdb, pg_ctl, postgres) off PATH, per major version.
compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || missing+=(postgresql)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

is_ci() { case "${CI:-}" in "" | 0 | false | False | FALSE) return 1 ;; *) return 0 ;; esac; }

if [ "${EUID:-$(id -u)}" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "ensure-test-services: installing ${missing[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    # fonts-liberation gives headless Chromium real text metrics; without any font, labels measure oddly.
    if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" fonts-liberation; then
        exit 0
    fi
    echo "ensure-test-services: apt-get could not install ${missing[*]}" >&2
    if is_ci; then
        exit 1
    fi
    exit 0
fi

echo "ensure-test-services: missing ${missing[*]}; install them (Debian: sudo apt-get install ${missing[*]})," \
    "else the browser/PostgreSQL tests skip (and fail under CI=true)." >&2
exit 0
