/**
 * The admin pages' messages are the spec's own words (docs/product.md §2.10 Admin pages, §5.2 Admin, §8), written
 * out here as the spec has them, so a change to contract/admin.ts cannot drift from the spec unseen.
 */
import { AD_EDIT_HEADINGS, ADMIN_MESSAGES } from './admin';

describe('ADMIN_MESSAGES (docs/product.md §2, §5, §8)', () => {
  it.each([
    ['emptyApplicationList', '요청받은 광고가 없습니다.'],
    ['approved', '광고가 승인되었습니다.'],
    ['approveFailed', '광고 승인에 실패했습니다'],
    ['rejected', '광고가 거절되었습니다.'],
    ['rejectFailed', '광고 거절에 실패했습니다.'],
    ['invalidType', 'invalid ad type'],
    ['invalidTypeEdit', 'Invalid ad type.'],
    ['invalidUrl', 'invalid URL'],
    ['listLoadFailed', 'Failed to load the ad list.'],
    ['modified', 'ad has been modified'],
    ['modifyFailedWith', 'Failed to modify the ad'],
    ['modifyFailed', 'Failed to modify the ad.'],
    ['deleteFailed', 'Failed to delete the ad.'],
    ['uploadFailed', 'Failed to upload the image.'],
    ['deleteConfirm', 'Do you want to delete the ad?'],
    ['deletedTitle', 'Completed'],
    ['deletedText', 'Deleted'],
    ['noTitle', '(no title)'],
    ['noLink', '(no link)'],
    ['noImage', 'no image'],
  ] as const)('%s is %j', (key, text) => {
    expect(ADMIN_MESSAGES[key]).toBe(text);
  });

  it("'Failed to modify the ad: {server message}' (docs/product.md §8) is the prefix, a colon and the message", () => {
    expect(`${ADMIN_MESSAGES.modifyFailedWith}: no web ad with id 3`).toBe(
      'Failed to modify the ad: no web ad with id 3',
    );
  });

  it("the approve failure with the server's message (docs/product.md §8) reads as the spec has it", () => {
    expect(`${ADMIN_MESSAGES.approveFailed}: 이미 승인 또는 거절된 요청입니다.`).toBe(
      '광고 승인에 실패했습니다: 이미 승인 또는 거절된 요청입니다.',
    );
  });
});

describe('AD_EDIT_HEADINGS (docs/product.md §2.10.3 Ad edit page)', () => {
  it('web, kakao and any other type', () => {
    expect(AD_EDIT_HEADINGS).toEqual({
      web: 'Web ad post / edit',
      kakao: 'Chatbot ad post / edit',
      other: 'Ad management',
    });
  });
});
