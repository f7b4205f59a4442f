"""The compiled searches over the games' compiled rules: the engine's negamax
(:mod:`.engine`) and MCTS (:mod:`.mcts`)."""
