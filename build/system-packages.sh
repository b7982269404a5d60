# Sourced by build/run.sh and .ci/run: installs the Debian packages a step needs, or stops with
# one line naming them.
#
#   need_packages "<what they are for>" <command-or-package>...
#
# Each argument is `cmd:package` (present when the command is on PATH) or `package` (present when
# dpkg knows it). Where something is missing: as root, or with sudo that needs no password, the
# packages are installed with apt-get; otherwise one line names them and the command to run.
# On a system without dpkg (macOS, Windows, another Linux) nothing is checked: the build says
# what it lacks itself.

need_packages() {
  local why="$1"
  shift
  command -v dpkg >/dev/null 2>&1 || return 0
  local missing=() item cmd pkg
  for item in "$@"; do
    if [[ "$item" == *:* ]]; then
      cmd="${item%%:*}"
      pkg="${item#*:}"
      command -v "$cmd" >/dev/null 2>&1 && continue
    else
      pkg="$item"
      dpkg -s "$pkg" >/dev/null 2>&1 && continue
    fi
    [[ " ${missing[*]} " == *" $pkg "* ]] || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0

  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      sudo="sudo"
    else
      echo "betdesk: missing Debian packages for ${why}: ${missing[*]}; install them with: sudo apt-get install ${missing[*]}" >&2
      exit 1
    fi
  fi
  echo "betdesk: installing ${missing[*]} (${why})" >&2
  $sudo apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
}
