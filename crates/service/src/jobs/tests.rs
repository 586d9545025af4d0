//! The job map's rules, without files or threads.

use super::*;
use winit_automation_protocol::Failure;

fn queued(line: &str) -> Job {
    Job::Queued {
        command: Command::parse(line).unwrap(),
        deadline: None,
        taken: false,
    }
}

fn forwarded(verb: Verb) -> Job {
    Job::Forwarded {
        verb,
        settle: None,
        since: Instant::now(),
        deadline: None,
        handover: Handover::default(),
    }
}

fn reply(seq: u64, frame: u64) -> Reply {
    Reply {
        seq,
        verb: Verb::Click,
        frame,
        result: Ok(String::new()),
        hit: None,
        clock: None,
    }
}

#[test]
fn queued_commands_take_their_turn_in_seq_order() {
    let mut jobs = Jobs::default();
    jobs.insert(7, queued("snapshot"));
    jobs.insert(3, queued("find role=button"));
    assert_eq!(jobs.next_turn().unwrap().0, 3);
    assert_eq!(jobs.next_turn().unwrap().0, 7);
    assert!(jobs.next_turn().is_none());
}

#[test]
fn nothing_takes_its_turn_while_a_command_is_carried_out() {
    let mut jobs = Jobs::default();
    jobs.insert(1, forwarded(Verb::Click));
    jobs.insert(2, queued("snapshot"));
    assert!(jobs.next_turn().is_none());
    jobs.replied(reply(1, 5));
    assert!(jobs.next_turn().is_none(), "replied is not answered yet");
    assert!(
        jobs.take_replies(4, false).is_empty(),
        "frame 5 not published"
    );
    let due = jobs.take_replies(5, false);
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].0.seq, 1);
    assert_eq!(jobs.next_turn().unwrap().0, 2);
}

#[test]
fn a_wait_does_not_hold_later_commands_back() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    jobs.insert(
        1,
        Job::Waiting(PendingWait {
            selector: Selector::parse("role=button").unwrap(),
            gone: false,
            started: now,
            deadline: now + Duration::from_secs(5),
        }),
    );
    jobs.insert(2, queued("click role=button"));
    assert_eq!(jobs.next_turn().unwrap().0, 2);
    assert_eq!(jobs.active(), 1);
    assert_eq!(
        jobs.next_deadline(Duration::ZERO, Duration::ZERO),
        Some(now + Duration::from_secs(5))
    );
}

#[test]
fn a_journal_long_poll_does_not_hold_later_commands_back() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    jobs.insert(
        1,
        Job::Polling(PendingJournal {
            after: 4,
            deadline: now + Duration::from_secs(5),
        }),
    );
    jobs.insert(2, queued("click role=button"));
    assert_eq!(jobs.next_turn().unwrap().0, 2);
    assert_eq!(jobs.active(), 1);
    assert_eq!(jobs.in_flight(), 0);
    let soon = now + Duration::from_millis(50);
    jobs.limit(1, Some(soon));
    assert_eq!(
        jobs.next_deadline(Duration::from_secs(9), Duration::from_secs(9)),
        Some(soon)
    );
}

#[test]
fn a_reply_for_a_command_that_is_not_forwarded_is_dropped() {
    let mut jobs = Jobs::default();
    // Already answered (at shutdown, say): no job.
    jobs.replied(reply(9, 1));
    assert!(jobs.take_replies(u64::MAX, true).is_empty());
    // Answered but unwritten: the late reply must not become a second answer.
    jobs.insert(
        4,
        Job::Unwritten(Response::error(
            4,
            None,
            Failure::new(winit_automation_protocol::ErrorCode::AppError, "x", "y"),
        )),
    );
    jobs.replied(reply(4, 1));
    assert!(jobs.take_replies(u64::MAX, true).is_empty());
    assert!(matches!(jobs.get(4), Some(Job::Unwritten(_))));
}

#[test]
fn answered_records_are_never_read_again_and_do_not_count_as_active() {
    let mut jobs = Jobs::default();
    jobs.insert(1, Job::Stuck);
    jobs.insert(
        2,
        Job::Partial {
            since: Instant::now(),
            len: 3,
        },
    );
    assert!(!jobs.needs_reading(1));
    assert!(
        jobs.needs_reading(2),
        "a partial entry is read again until complete"
    );
    assert!(jobs.needs_reading(3));
    assert_eq!(jobs.active(), 0);
    // Entries gone from disk are forgotten; a forwarded one is kept (it is still owed).
    jobs.insert(5, forwarded(Verb::Click));
    jobs.forget_missing(&std::collections::BTreeSet::new());
    assert!(jobs.get(1).is_none() && jobs.get(2).is_none());
    assert!(jobs.get(5).is_some());
    assert_eq!(jobs.in_flight(), 1);
}

#[test]
fn settle_options_travel_from_forwarded_to_replied() {
    let mut jobs = Jobs::default();
    let command = Command::parse("click @e1 --settle").unwrap();
    let act = command.act_options().unwrap();
    jobs.insert(
        1,
        Job::Forwarded {
            verb: Verb::Click,
            settle: Some(SettleAfter {
                options: act,
                before: "before".into(),
                deadline: None,
            }),
            since: Instant::now(),
            deadline: None,
            handover: Handover::default(),
        },
    );
    jobs.replied(reply(1, 2));
    let due = jobs.take_replies(2, false);
    assert_eq!(due[0].1.as_ref().unwrap().before, "before");
}

#[test]
fn deadlines_come_due_and_limit_waits() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    let soon = now + Duration::from_millis(50);
    jobs.insert(
        1,
        Job::Queued {
            command: Command::parse("click @e1").unwrap(),
            deadline: Some(soon),
            taken: false,
        },
    );
    jobs.insert(2, queued("snapshot"));
    jobs.insert(
        3,
        Job::Forwarded {
            verb: Verb::Click,
            settle: None,
            since: now,
            deadline: Some(now),
            handover: Handover::default(),
        },
    );
    assert_eq!(jobs.past_deadline(now), vec![3]);
    assert_eq!(jobs.past_deadline(soon), vec![1, 3]);
    assert_eq!(
        jobs.next_deadline(Duration::from_secs(9), Duration::from_secs(9)),
        Some(now)
    );
    assert_eq!(jobs.forwarded_since(), Some(now));
    // A wait gives up at its command's deadline when that comes first.
    jobs.insert(
        4,
        Job::Waiting(PendingWait {
            selector: Selector::parse("role=button").unwrap(),
            gone: false,
            started: now,
            deadline: now + Duration::from_secs(5),
        }),
    );
    jobs.limit(4, Some(soon));
    assert!(matches!(jobs.get(4), Some(Job::Waiting(w)) if w.deadline == soon));
    jobs.limit(4, Some(now + Duration::from_secs(60)));
    assert!(matches!(jobs.get(4), Some(Job::Waiting(w)) if w.deadline == soon));
}

#[test]
fn answered_seqs_are_swept_after_the_ttl_and_read_again_when_reused() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    let ttl = Duration::from_secs(60);
    jobs.insert(1, Job::Answered { at: now });
    jobs.insert(2, Job::Answered { at: now + ttl });
    assert_eq!(jobs.active(), 0);
    assert_eq!(jobs.next_deadline(ttl * 9, ttl), Some(now + ttl));
    jobs.forget_missing(&std::collections::BTreeSet::new());
    assert!(
        jobs.sweep_answered(now, ttl).is_empty(),
        "kept until the ttl: the response may still be unread"
    );
    assert_eq!(jobs.sweep_answered(now + ttl, ttl), vec![1]);
    assert!(jobs.sweep_answered(now + ttl, ttl).is_empty(), "swept once");
    assert!(jobs.needs_reading(1), "swept: a new command-1.txt is read");
    assert!(
        jobs.needs_reading(2),
        "a new command-2.txt is a new command"
    );
    assert!(jobs.take(2).is_none(), "the old record goes");
    assert!(
        jobs.sweep_answered(now + ttl * 3, ttl).is_empty(),
        "its place in the sweep goes with it"
    );
}

#[test]
fn an_answered_record_is_taken_out_and_put_back_in_its_place() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    let ttl = Duration::from_secs(60);
    for (seq, secs) in [(1, 0), (2, 10), (3, 20)] {
        jobs.insert(
            seq,
            Job::Answered {
                at: now + Duration::from_secs(secs),
            },
        );
    }
    // As `answer` does when asked to answer an answered seq again.
    let Some(job @ Job::Answered { .. }) = jobs.take(2) else {
        panic!("answered");
    };
    jobs.insert(2, job);
    let all: Vec<u64> = jobs.drain().into_iter().map(|(seq, _)| seq).collect();
    assert_eq!(all, vec![1, 2, 3]);
    assert!(
        jobs.sweep_answered(now + ttl * 2, ttl).is_empty(),
        "drained"
    );
    for (seq, secs) in [(3, 20), (1, 0), (2, 10)] {
        jobs.insert(
            seq,
            Job::Answered {
                at: now + Duration::from_secs(secs),
            },
        );
    }
    assert_eq!(
        jobs.sweep_answered(now + ttl + Duration::from_secs(15), ttl),
        vec![1, 2],
        "oldest first, whatever the order they were put in"
    );
}

#[test]
fn a_minute_of_answers_leaves_the_owed_jobs_scans_as_they_were() {
    let mut jobs = Jobs::default();
    let now = Instant::now();
    for seq in 1..=10_000 {
        jobs.insert(seq, Job::Answered { at: now });
    }
    jobs.insert(10_001, queued("snapshot"));
    assert_eq!(jobs.map.len(), 1, "the records are kept apart");
    assert_eq!(jobs.active(), 1);
    assert_eq!(jobs.next_turn().unwrap().0, 10_001);
}

#[test]
fn a_claim_is_won_by_exactly_one_side() {
    let claim = Handover::default();
    assert!(claim.take());
    assert!(claim.take(), "taking again is harmless");
    assert!(!claim.withdraw());
    let claim = Handover::default();
    assert!(claim.withdraw());
    assert!(!claim.take());
    assert!(!claim.withdraw(), "withdrawn once");
}

#[test]
fn a_lost_drop_box_forgets_its_entries_but_what_the_render_side_has() {
    let mut jobs = Jobs::default();
    jobs.insert(1, Job::Answered { at: Instant::now() });
    jobs.insert(2, forwarded(Verb::Click));
    jobs.insert(3, forwarded(Verb::Click));
    jobs.replied(reply(3, 9));
    jobs.insert(4, queued("snapshot"));
    jobs.insert(
        5,
        Job::Partial {
            since: Instant::now(),
            len: 3,
        },
    );
    jobs.insert(6, Job::Stuck);
    assert_eq!(jobs.lose_entries(), [4, 5, 6]);
    // The answered record went: seq 1 is a new command's.
    assert!(jobs.needs_reading(1));
    assert!(jobs.get(1).is_none());
    // The orphans hold the line and their seqs are not read again until they are answered.
    assert!(jobs.is_orphan(2) && jobs.is_orphan(3) && !jobs.is_orphan(4));
    jobs.insert(7, queued("snapshot"));
    assert!(jobs.next_turn().is_none());
    assert!(!jobs.needs_reading(2));
    // An orphan's answer is its last: the seq is not an orphan after it.
    assert!(matches!(jobs.take(2), Some(Job::Forwarded { .. })));
    assert!(jobs.take_orphan(2));
    assert!(!jobs.take_orphan(2));
    assert!(jobs.needs_reading(2));
    // A second loss keeps the orphan still owed.
    assert_eq!(jobs.lose_entries(), [7]);
    assert!(jobs.is_orphan(3));
}
