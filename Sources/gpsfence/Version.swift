/// The version of gpsfence: the one place it is written. `gpsfence --version` prints it, and
/// `make deb` reads it from here (scripts/build-deb.sh) for the package's name and its changelog.
let gpsfenceVersion = "0.1.0"
