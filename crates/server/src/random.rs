//! Randomness from the operating system: deals' seeds, table ids, seat
//! tokens. No client can predict any of them.

/// 64 bits from the operating system.
pub fn random_u64() -> u64 {
    let mut bytes = [0; 8];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    u64::from_le_bytes(bytes)
}

/// A seat token: 128 bits from the operating system, in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system gives random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A table's id: `t` and 48 random bits in hex.
pub fn new_table_id() -> String {
    format!("t{:012x}", random_u64() >> 16)
}
