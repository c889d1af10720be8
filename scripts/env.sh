# Sourced by the other scripts: the tools setup.sh installs, on PATH.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$root/node_modules/.bin:$HOME/.cargo/bin:$PATH"
