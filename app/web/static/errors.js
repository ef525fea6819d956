// Every refusal the service can give, as a sentence a player understands. The service's own
// text goes to the developer console (see words()).
const WORDS = {
  invalid_parameter: "Something in that request was not of the right form. Please try again.",
  missing_parameter: "Something needed was missing from that request. Please try again.",
  invalid_request: "The page sent a request the server did not understand. Reload the page and try again.",
  game_not_found: "This game does not exist, or it ended long ago and was cleared away.",
  unknown_player: "You are no longer a player of this game.",
  not_admin: "Only the game's host can do that.",
  invalid_nickname: "A name starts with a letter and has only letters, digits and _ (no spaces), up to 64 characters.",
  nickname_taken: "Someone at this table already has that name. Choose another one.",
  unknown_agent: "There is no computer player of that kind.",
  game_not_started: "The game has not started yet.",
  game_finished: "This game is over.",
  not_your_turn: "It is not your turn any more: the table moved on. Look at the newest bet.",
  invalid_action: "That is not a bet or a check.",
  illegal_action: "That bet is not allowed now: a bet must be higher than the one standing, and there must be a bet before anyone can check.",
  round_not_reached: "The game has not reached that round yet.",
  game_already_started: "The game has already started, so that can no longer be changed.",
  room_full: "This table is full: 8 players at most.",
  too_few_players: "You need at least 2 players to start. Invite a computer player or share the link.",
  cannot_remove_self: "You cannot remove yourself; use Leave instead.",
  already_out: "You are already out of this game.",
  invalid_max_cards: "That maximum of cards is too high for the number of players seated.",
  unknown_reaction: "That reaction is not one of the eight offered.",
  too_many_reactions: "Easy on the reactions: wait a few seconds before sending another.",
  cannot_report_self: "You cannot report your own name.",
  cannot_report_ai: "Computer players' names are chosen by the game and cannot be reported.",
  not_found: "The page asked for something that does not exist. Reload the page.",
  method_not_allowed: "The page asked in a way the server does not accept. Reload the page.",
  conflict: "Something changed on the table just as you acted, so nothing was done. Look again and retry.",
  game_not_finished: "The replay is ready once the game is over.",
  request_timeout: "The connection was too slow. Please try again.",
  body_too_large: "That request was too large.",
  weak_idempotency_key: "The page sent a request the server refused. Reload the page and try again.",
  idempotency_key_reused: "The page sent a request the server refused. Reload the page and try again.",
  game_gone: "That game has expired. Start a new one.",
  rate_limited: "Too many requests from your connection: wait a few seconds and try again.",
  too_many_in_flight: "Too many requests at once: wait a second and try again.",
  too_many_connections: "The server is busy: wait a few seconds and try again.",
  invalid_state: "The server could not read this game. Please start a new one.",
  invalid_rules: "Those rules cannot be played: a deck has 24 or 32 cards, and jokers, blanks and common cards are 0 to 12 each (or too many cards for the players seated).",
  invalid_team: "A team is a number from 1 to 8, or none to play on your own.",
  one_team: "Everyone is in the same team, so nobody would play against anybody: put someone in another team, or on their own.",
  profane_nickname: "That name is not allowed here. Choose a polite one.",
  unknown_account: "This browser's key opens no account on this server. Sign in with your key again, or make a new account.",
  handle_taken: "Someone already has an account with that name (capitals do not count). Choose another name.",
  unknown_pool: "There is no such kind of rated game. Reload the page and choose again.",
  unknown_handle: "No player has that name.",
  already_at_table: "You are already at a rated game that is not over: finish it first.",
  ladder_unavailable: "Rated games are not available on this server yet. You can still play without an account.",
  no_permission: "Only the host can do that for another player; you can change only your own team.",
};

export const ERROR_CODES = Object.keys(WORDS);

/** The sentence for a refusal {status, code, message}; logs the service's own words. */
export function words(error) {
  if (error && error.message && typeof console !== "undefined") console.info(`blef: the service said (${error.code || error.status}): ${error.message}`);
  if (error && error.code && WORDS[error.code]) return WORDS[error.code];
  if (error && error.status === 0) return "The server cannot be reached. Check your connection; the page keeps trying.";
  return "Something went wrong. Please try again.";
}
