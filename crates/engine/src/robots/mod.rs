//! The Robot board (docs/rules/robot-board.md, seed 001): robots of rule A and
//! B walk to their homes over normal, hint and broken-robot tiles and conveyor
//! belts; belts carry them and settle in rounds; hint tiles tell a robot where
//! its home lies, in its own frame; players may exchange tiles.

pub mod ai;
pub mod deal;
pub mod diagnose;
pub mod edit;
pub mod generate;
pub mod level;
pub mod rules;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod exchange_tests;

#[cfg(test)]
mod hidden_tests;

pub use level::{Dir, Homes, RobotSpec, RobotsLevel, RuleSet};
pub use rules::{
    HeldHint, Hint, Pos, Robot, RobotMove, RobotStep, Robots, RobotsError, Sighting, Tile, column_name,
    compass_name, tile_name,
};
