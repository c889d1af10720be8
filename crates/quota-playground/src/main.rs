fn main() {
    quota_playground::run();
}
