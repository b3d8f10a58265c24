// Telegram Bot API methods that have no counterpart in this chat. A bot calling one gets Telegram's 400 envelope
// with a description that says why, instead of the 404 of a method nobody has heard of, so a library reports a
// clear error. Method names are matched case-insensitively, as Telegram's are.
const reasons: Record<string, string[]> = {
  'messages carry files (sendDocument, sendPhoto, sendVideo, sendAudio, ...); there are no stickers, media edits or chat photos here': [
    'sendSticker',
    'editMessageMedia',
    'uploadStickerFile',
    'setChatPhoto',
    'deleteChatPhoto',
    'getUserProfilePhotos',
  ],
  'the chat has no locations, contacts, dice or games for bots': [
    'sendLocation',
    'sendVenue',
    'sendContact',
    'sendDice',
    'sendGame',
    'setGameScore',
    'getGameHighScores',
    'editMessageLiveLocation',
    'stopMessageLiveLocation',
    'sendPaidMedia',
    'sendChecklist',
  ],
  'rooms have no bans, restrictions, removals or rights set by bots here (getChatAdministrators, leaveChat, setChatTitle and setChatDescription are served)':
    [
      'banChatMember',
      'unbanChatMember',
      'restrictChatMember',
      'promoteChatMember',
      'setChatAdministratorCustomTitle',
      'banChatSenderChat',
      'unbanChatSenderChat',
      'setChatPermissions',
      'approveChatJoinRequest',
      'declineChatJoinRequest',
      'setChatStickerSet',
      'deleteChatStickerSet',
    ],
  'rooms have no invite links': [
    'exportChatInviteLink',
    'createChatInviteLink',
    'editChatInviteLink',
    'revokeChatInviteLink',
    'createChatSubscriptionInviteLink',
    'editChatSubscriptionInviteLink',
  ],
  'rooms have no forum topics; threads are replies (reply_to_message_id)': [
    'createForumTopic',
    'editForumTopic',
    'closeForumTopic',
    'reopenForumTopic',
    'deleteForumTopic',
    'unpinAllForumTopicMessages',
    'getForumTopicIconStickers',
    'editGeneralForumTopic',
    'closeGeneralForumTopic',
    'reopenGeneralForumTopic',
    'hideGeneralForumTopic',
    'unhideGeneralForumTopic',
  ],
  'inline mode, payments and stickers are not supported': [
    'answerInlineQuery',
    'answerWebAppQuery',
    'savePreparedInlineMessage',
    'sendInvoice',
    'createInvoiceLink',
    'answerShippingQuery',
    'answerPreCheckoutQuery',
    'refundStarPayment',
    'getStarTransactions',
    'getStickerSet',
    'getCustomEmojiStickers',
    'createNewStickerSet',
    'addStickerToSet',
    'setStickerPositionInSet',
    'deleteStickerFromSet',
    'setStickerSetThumbnail',
    'deleteStickerSet',
    'sendGift',
    'getAvailableGifts',
  ],
  'bot profile settings are managed through the administration API (PATCH /api/v1/bots/{id})': [
    'setMyName',
    'getMyName',
    'setMyDescription',
    'getMyDescription',
    'setMyShortDescription',
    'getMyShortDescription',
    'setChatMenuButton',
    'getChatMenuButton',
    'setMyDefaultAdministratorRights',
    'getMyDefaultAdministratorRights',
  ],
  'these are handled by the server: a bot does not log out or close': ['logOut', 'close'],
  'several messages at once are not supported: call the single-message method for each': [
    'forwardMessages',
    'copyMessages',
    'unpinAllChatMessages',
  ],
  'business accounts and stories are not supported': [
    'getBusinessConnection',
    'postStory',
    'editStory',
    'deleteStory',
    'getUserChatBoosts',
  ],
};

const byName = new Map<string, string>();
for (const [reason, names] of Object.entries(reasons)) for (const name of names) byName.set(name.toLowerCase(), reason);

/** Why a Telegram method is not served here, or undefined when the name is not one of them. */
export function unsupportedReason(method: string): string | undefined {
  return byName.get(method.toLowerCase());
}

/** Every method refused here with its reason, in the order above (docs/bots.md lists them). */
export function unsupportedMethods(): Array<{ method: string; reason: string }> {
  return Object.entries(reasons).flatMap(([reason, names]) => names.map((method) => ({ method, reason })));
}
