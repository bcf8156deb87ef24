fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}
