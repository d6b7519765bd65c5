//! The consensus and coordination family (cargo feature
//! `family-consensus`): leader election inside consensus protocols and
//! coordination services, whose leaders write to a fenced resource or
//! serve clients.
//!
//! Files: `zab/` (ZooKeeper's FastLeaderElection and Zab discovery, with
//! observers), `zookeeper/` (the leader election recipe on a ZooKeeper
//! service: ephemeral sequential znodes, watches on the predecessor),
//! `lease/` (a leader that holds a lease in a lease service) and
//! `multi_paxos/` (Multi-Paxos with a stable leader and a master lease)
//! hold the algorithms. Beside them: `service.rs` the coordination
//! service ZooKeeper and Lease run against, `resource.rs` the fenced
//! resource leaders write to, and `extras.rs` the node that is either a
//! participant or one of those extra nodes (Raft uses it too).

pub mod extras;
pub mod lease;
pub mod multi_paxos;
pub mod resource;
pub mod service;
pub mod zab;
pub mod zookeeper;
