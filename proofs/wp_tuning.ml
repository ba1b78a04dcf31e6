(* Loaded into frama-c by proofs/wp-run.sh (-load-module); compiled there
   against Frama-C's own interfaces (frama-c -print-lib-path). Two settings
   that change how fast WP runs, never what it proves:

   - OCaml's GC, for WP's allocation pattern. Frama-C resets the minor heap
     to 256k words at start-up, after OCAMLRUNPARAM is read, so only code
     running inside the process can change it. Each minor collection scans
     the stack and the globals of every dynamically loaded module
     (caml_oldify_local_roots, the top symbol in perf); a 256 MB minor heap
     (32M words) and space_overhead 200 cut the CPU time of WP on ty_tr by
     14% (proofs/README.md "Provers and settings"). FRAMA_C_GC_MINOR_WORDS and
     FRAMA_C_GC_SPACE_OVERHEAD override the two.

   - The task server's polling period. WP waits for a prover's answer in
     Task.on_idle, which sleeps 50 ms between polls: strace showed frama-c
     asleep for 2-3 periods after each prover had already exited. 5 ms
     here (FRAMA_C_POLL_MS overrides): the same 94 goals, one run after the
     other on the idle machine, 38.3 -> 30.2 s wall at the same CPU time. *)
let int_env name default =
  match Sys.getenv_opt name with
  | Some s -> (match int_of_string_opt s with Some n when n > 0 -> n | _ -> default)
  | None -> default

let () =
  let gc = Gc.get () in
  Gc.set { gc with
           Gc.minor_heap_size = int_env "FRAMA_C_GC_MINOR_WORDS" (32 * 1024 * 1024);
           space_overhead = int_env "FRAMA_C_GC_SPACE_OVERHEAD" 200 }

let () =
  let period = float_of_int (int_env "FRAMA_C_POLL_MS" 5) /. 1000. in
  Task.on_idle :=
    (fun f -> try while f () do Unix.sleepf period done with Db.Cancel -> ())
