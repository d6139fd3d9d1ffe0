//! Russian Bank (docs/rules/russian-bank.md, seed 004): two players race to
//! empty their reserve, hand and waste onto shared foundations and tableau and
//! onto each other's piles, under the rules of priority and the Stop.

pub mod ai;
pub mod level;
pub mod pile;
pub mod rules;

#[cfg(test)]
mod circles_tests;
#[cfg(test)]
mod tests;

pub use level::{Card, Deal, FixedDeal, FixedPosition, RussianBankLevel, SideSpec, Suit};
pub use rules::{
    BankError, BankMove, BankStep, BankView, Breach, Place, Priority, RussianBank, Side, Source, Target,
    opponent,
};
